// The one decision the messaging policy makes about one customer-facing message, asked with the
// same inputs by every place that sends or pretends to: the engine's gate
// (src/pipeline/execution/timing/policy-gate.service.ts), rule tests' simulated clock
// (src/language/rules/timeline-policy-gate.ts) and the offline replays of `forecast` and `diff`
// (offline-policy.ts). They differ only in where `sentAt` comes from (the ledger, the simulated
// clock, the replay) and in when they ask: a deferred message is asked again when it is released,
// never counted as sent at its deferral. Pure.
import { isTimeZone } from '../rules/check-timezone';
import { isCustomerMessage } from './customer-messages';
import {
  decidePolicy,
  policyApplies,
  quietZone,
  type MessagingPolicy,
  type PolicyDecision,
} from './messaging-policy';

/** What the policy reads of the contact. */
export interface PolicyContact {
  customFields?: Record<string, unknown>;
}

export interface MessageToJudge {
  /** The action's type: only customer messages (catalogue `customerMessage`) are judged. */
  type: string;
  /** When the message would go: first attempt, or release after a deferral. */
  now: Date;
  contact: PolicyContact;
  /** When the contact got customer messages that went (the caps count them), any order. */
  sentAt: readonly Date[];
  /** The customer's inbound message the run answers (message.* triggers), for the reply grace. */
  inboundAt?: Date;
}

/** The policy's decision, or undefined when it has no say (no policy, or not a customer message). */
export function judgeMessage(
  policy: MessagingPolicy | undefined,
  message: MessageToJudge,
): PolicyDecision | undefined {
  if (!policyApplies(policy) || !isCustomerMessage(message.type)) return undefined;
  return decidePolicy(policy, {
    now: message.now,
    zone: quietZone(policy, message.contact.customFields, isTimeZone),
    sentAt: message.sentAt,
    inboundAt: message.inboundAt,
  });
}
