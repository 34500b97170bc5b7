// The messaging policy for offline replays (crm-rules forecast and diff): per contact, the customer
// messages sent before the replay (`prior`: read from the ledger or a recorded file, when known)
// and those "sent" so far in the replay stand in for the ledger, so caps hold across rules as the
// engine's gate makes them hold. Pure, in memory.
import { isCustomerMessage } from './customer-messages';
import { isTimeZone } from '../rules/check-timezone';
import {
  decidePolicy,
  policyApplies,
  quietZone,
  type MessagingPolicy,
  type PolicyDecision,
} from './messaging-policy';

export class OfflinePolicy {
  private readonly sent = new Map<string, Date[]>();

  constructor(
    private readonly policy: MessagingPolicy | undefined,
    /** Per contact id: when its customer messages before the replay went (any order). */
    private readonly prior: ReadonlyMap<string, readonly Date[]> = new Map(),
  ) {}

  /**
   * What the gate would decide for action `type` to the contact at `now`; undefined when the
   * policy does not apply to it. A message that goes (now) or is deferred (at its `until`) counts.
   */
  decide(
    contactId: string,
    type: string,
    now: Date,
    customFields?: Record<string, unknown>,
    inboundAt?: Date,
  ): PolicyDecision | undefined {
    const policy = this.policy;
    if (!policyApplies(policy) || !isCustomerMessage(type)) return undefined;
    const sentAt = this.sent.get(contactId) ?? [...(this.prior.get(contactId) ?? [])];
    const decision = decidePolicy(policy, {
      now,
      zone: quietZone(policy, customFields, isTimeZone),
      sentAt,
      inboundAt,
    });
    if (decision.kind !== 'skip')
      this.sent.set(contactId, [...sentAt, decision.kind === 'go' ? now : decision.until]);
    return decision;
  }
}
