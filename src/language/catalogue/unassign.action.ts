// `- unassign` -> PATCH /v1/contacts/{id} { assigneeId: null } (docs/CRM-API.md (assumptions)).
import { PROCEED, skip, type ActionDefinition } from './action-definition';
import { assigneeLeafFalsified } from './assign.action';

export type UnassignAction = { type: 'unassign' };
export type ResolvedUnassign = { type: 'unassign' };

export const unassignAction: ActionDefinition<UnassignAction, ResolvedUnassign> = {
  type: 'unassign',
  schema: { enum: [null, true], description: 'Remove the assignee of the contact (write `- unassign`).' },
  bare: true,
  repeat: 'state-checked',
  parse: () => ({}),
  label: () => 'unassign',
  effect: {
    writes: () => 'contact.assigneeId',
    emits: () => ['contact.updated'],
    falsifies: (_a, leaf) => assigneeLeafFalsified(false, leaf),
    undoneBy: (_a, other) => (other.type === 'assign' ? { what: 'assignee', conflict: false } : undefined),
  },
  resolve: async () => ({ type: 'unassign' }),
  guard: (_r, contact) =>
    contact.assigneeId ? PROCEED : skip('no_change', 'contact has no assignee already'),
  apply: (_r, contact) => ({ ...contact, assigneeId: null }),
  execute: (_r, env) => env.gateway.updateContact(env.contact.id, { assigneeId: null }, env.opts),
};
