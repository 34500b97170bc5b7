// `- block` -> POST /v1/contacts/{id}/block (docs/CRM-API.md §4.3).
import { PROCEED, skip, type ActionDefinition, type RequiredLeaf } from './action-definition';

export type BlockAction = { type: 'block' };
export type ResolvedBlock = { type: 'block' };

/** The leaf is false once isBlocked is `blocked`. */
export function blockedLeafFalsified(blocked: boolean, leaf: RequiredLeaf): boolean {
  if (leaf.field !== 'contact.isBlocked' || leaf.negated) return false;
  return (
    (leaf.op === 'equal' && leaf.value === !blocked) || (leaf.op === 'notEqual' && leaf.value === blocked)
  );
}

export const blockAction: ActionDefinition<BlockAction, ResolvedBlock> = {
  type: 'block',
  schema: { enum: [null, true], description: 'Block the contact (write `- block`).' },
  bare: true,
  repeat: 'state-checked',
  parse: () => ({}),
  label: () => 'block',
  effect: {
    writes: () => 'contact.isBlocked',
    emits: () => ['contact.updated'],
    falsifies: (_a, leaf) => blockedLeafFalsified(true, leaf),
    undoneBy: (_a, other) =>
      other.type === 'unblock' ? { what: 'blocked state', conflict: true } : undefined,
  },
  resolve: async () => ({ type: 'block' }),
  guard: (_r, contact) => (contact.isBlocked ? skip('no_change', 'contact is already blocked') : PROCEED),
  apply: (_r, contact) => ({ ...contact, isBlocked: true }),
  execute: (_r, env) => env.gateway.blockContact(env.contact.id, env.opts),
};
