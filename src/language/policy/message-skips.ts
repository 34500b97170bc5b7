// Which skipped actions an operator must hear about: a customer message the engine did not send
// for a reason that is not the rule's own intent (no assignee, blocked, policy cap, quiet hours
// or a window past, channel down). A skip by design (branch not taken, shadow mode, already sent
// for this trigger, no change) is not one. The run still ends `succeeded`; the console shows it
// "succeeded with skips", counts and lists it under Needs attention, the worker logs a warn line
// and the alerts raise it. An assignment no pool member could take (`pool_full`, `pool_empty`)
// is listed there too: the contact stays unassigned, and its later messages may skip for it. Pure.
import { CUSTOMER_MESSAGE_TYPES, isCustomerMessage } from './customer-messages';

export const ATTENTION_SKIP_REASONS: readonly string[] = [
  'needs_assignee',
  'contact_blocked',
  'channel_not_connected',
  'policy_cap',
  'quiet_hours',
  'outside_window',
];

/** Skips of `assign` from a pool that an operator must see: nobody eligible took the contact. */
export const POOL_SKIP_REASONS: readonly string[] = ['pool_full', 'pool_empty'];

/**
 * Every reason above, in the order of the predicate of the partial index the console's counts read
 * (IDX_action_results_message_skips; message-skips-index.spec.ts keeps them the same).
 */
export const ATTENTION_INDEX_REASONS: readonly string[] = [...ATTENTION_SKIP_REASONS, ...POOL_SKIP_REASONS];

/** A skipped action of `type` for `reason` that an operator must see. */
export function isAttentionSkip(type: string, reason: string | null | undefined): boolean {
  if (!reason) return false;
  if (type === 'assign') return POOL_SKIP_REASONS.includes(reason);
  return isCustomerMessage(type) && ATTENTION_SKIP_REASONS.includes(reason);
}

/** The kinds of skip above, as the ledger's views take them (RunFilter.skipsOf, skippedMessages). */
export const MESSAGE_SKIP_KINDS = {
  types: CUSTOMER_MESSAGE_TYPES,
  reasons: ATTENTION_SKIP_REASONS,
  also: [{ type: 'assign', reasons: POOL_SKIP_REASONS }],
};
