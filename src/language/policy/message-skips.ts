// Which skipped actions an operator must hear about: a customer message the engine did not send
// for a reason that is not the rule's own intent (no assignee, blocked, policy cap, quiet hours
// or a window past, channel down). A skip by design (branch not taken, shadow mode, already sent
// for this trigger, no change) is not one. The run still ends `succeeded`; the console shows it
// "succeeded with skips", counts and lists it under Needs attention, the worker logs a warn line
// and the alerts raise it. Pure.
import { CUSTOMER_MESSAGE_TYPES, isCustomerMessage } from './customer-messages';

export const ATTENTION_SKIP_REASONS: readonly string[] = [
  'needs_assignee',
  'contact_blocked',
  'channel_not_connected',
  'policy_cap',
  'quiet_hours',
  'outside_window',
];

/** A skipped action of `type` for `reason` that an operator must see. */
export function isAttentionSkip(type: string, reason: string | null | undefined): boolean {
  return !!reason && isCustomerMessage(type) && ATTENTION_SKIP_REASONS.includes(reason);
}

/** The kinds of skip above, as the ledger's views take them (RunFilter.skipsOf, skippedMessages). */
export const MESSAGE_SKIP_KINDS = {
  types: CUSTOMER_MESSAGE_TYPES,
  reasons: ATTENTION_SKIP_REASONS,
};
