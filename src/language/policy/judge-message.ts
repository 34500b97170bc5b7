// The one decision the messaging policy makes about one customer-facing message, asked with the
// same inputs by every place that sends or pretends to: the engine's gate
// (src/pipeline/execution/timing/policy-gate.service.ts), rule tests' simulated clock
// (src/language/rules/testing/timeline-policy-gate.ts) and the offline replays of `forecast` and `diff`
// (offline-policy.ts). They differ only in where `sent` comes from (the ledger, the simulated
// clock, the replay) and in when they ask: a deferred message is asked again when it is released,
// never counted as sent at its deferral. Precedence: policy-categories.ts. Pure.
import { isTimeZone } from '../rules/checks/check-timezone';
import { isCustomerMessage } from './customer-messages';
import { heldOut } from './holdout';
import {
  decidePolicy,
  policyApplies,
  quietZone,
  type MessagingPolicy,
  type PolicyDecision,
} from './messaging-policy';
import {
  categoryOf,
  countedFor,
  policyForCategory,
  suppressionFor,
  type PolicyContact,
  type SentMessage,
} from './policy-categories';

export type { PolicyContact, SentMessage } from './policy-categories';

export interface MessageToJudge {
  /** The action's type: only customer messages (catalogue `customerMessage`) are judged. */
  type: string;
  /** The category the action (or its rule) declares; absent: the policy's default. */
  category?: string;
  /** When the message would go: first attempt, or release after a deferral. */
  now: Date;
  contact: PolicyContact;
  /** The contact's customer messages that went (the caps count them), any order. */
  sent: readonly SentMessage[];
  /** The customer's inbound message the run answers (message.* triggers), for the reply grace. */
  inboundAt?: Date;
}

/** The policy's decision, or undefined when it has no say (no policy, or not a customer message). */
export function judgeMessage(
  policy: MessagingPolicy | undefined,
  message: MessageToJudge,
): PolicyDecision | undefined {
  if (!policyApplies(policy) || !isCustomerMessage(message.type)) return undefined;
  const category = categoryOf(policy, message.category);
  const suppressed = suppressionFor(policy, message.contact, category, message.now);
  if (suppressed)
    return {
      kind: 'skip',
      reason: 'suppressed',
      detail: `${suppressed.name}${suppressed.categories ? ` (holds ${suppressed.categories.join(', ')})` : ''}; category ${category}`,
    };
  if (heldOut(policy.holdout, message.contact.id, category))
    return {
      kind: 'skip',
      reason: 'holdout',
      detail: `in the global control group (${policy.holdout!.percent}%); category ${category}`,
    };
  const own = policyForCategory(policy, category);
  return decidePolicy(own, {
    now: message.now,
    zone: quietZone(own, message.contact.customFields, isTimeZone),
    sentAt: countedFor(policy, category, message.sent),
    inboundAt: message.inboundAt,
  });
}
