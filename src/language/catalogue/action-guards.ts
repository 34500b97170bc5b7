// The CRM's domain rules and no-op elimination, checked before a call with the freshest
// contact state the engine has. A skipped action costs no budget and is recorded with its
// reason; nothing is dropped silently. Each catalogue entry declares its own guard; these
// dispatch to it. Pure functions, no Nest.
import type { Contact } from '@crm-rules/crm-contract';
import type { GuardVerdict } from './action-definition';
import { actionDefinition, type ResolvedAction } from './catalogue';

/** Decides whether `action` may be sent for `contact`. */
export function guardAction(action: ResolvedAction, contact: Contact): GuardVerdict {
  return actionDefinition(action.type).guard(action, contact);
}

/**
 * The contact as it will be after `action` succeeds, so a sequence of actions is guarded
 * against the state the previous ones produced (e.g. assign, then react).
 */
export function applyActionLocally(action: ResolvedAction, contact: Contact): Contact {
  return actionDefinition(action.type).apply(action, contact);
}
