// `- unblock` -> POST /v1/contacts/{id}/unblock (docs/CRM-API.md §4.3).
import { PROCEED, skip, type ActionDefinition } from './action-definition';
import { blockedLeafFalsified } from './block.action';

export type UnblockAction = { type: 'unblock' };
export type ResolvedUnblock = { type: 'unblock' };

export const unblockAction: ActionDefinition<UnblockAction, ResolvedUnblock> = {
  type: 'unblock',
  schema: { enum: [null, true], description: 'Unblock the contact (write `- unblock`).' },
  bare: true,
  repeat: 'state-checked',
  parse: () => ({}),
  label: () => 'unblock',
  effect: {
    writes: () => 'contact.isBlocked',
    emits: () => ['contact.updated'],
    falsifies: (_a, leaf) => blockedLeafFalsified(false, leaf),
    undoneBy: (_a, other) => (other.type === 'block' ? { what: 'blocked state', conflict: true } : undefined),
  },
  resolve: async () => ({ type: 'unblock' }),
  guard: (_r, contact) => (contact.isBlocked ? PROCEED : skip('no_change', 'contact is not blocked')),
  apply: (_r, contact) => ({ ...contact, isBlocked: false }),
  execute: (_r, env) => env.gateway.unblockContact(env.contact.id, env.opts),
};
