// `- assign: Ana Ops` (name, email, uuid or round-robin) -> PATCH /v1/contacts/{id} { assigneeId }
// (docs/CRM-API.md (assumptions)).
import type { CrmDirectory } from '../../crm/crm-directory.service';
import type { Uuid } from '@crm-rules/crm-contract';
import { PROCEED, quoted, sameName, skip, text, type ActionDefinition } from './action-definition';

export type AssignAction = { type: 'assign'; member: string };
export type ResolvedAssign = { type: 'assign'; memberId: Uuid };

export const ROUND_ROBIN = 'round-robin';

export const isRoundRobin = (member: string): boolean => member.toLowerCase() === ROUND_ROBIN;

/** A member by name, email or uuid, or the next one of the shared rotation. */
export async function resolveMemberId(directory: CrmDirectory, member: string): Promise<Uuid> {
  if (isRoundRobin(member)) return (await directory.nextRoundRobinMember()).id;
  return (await directory.resolveMember(member)).id;
}

/** Assigning (assign, assign-first, unassign) falsifies "has no assignee" / "has an assignee". */
export function assigneeLeafFalsified(
  assigns: boolean,
  leaf: { field: string; op: string; value: unknown; negated: boolean },
): boolean {
  if (leaf.field !== 'contact.assigneeId' || leaf.negated) return false;
  return assigns
    ? (leaf.op === 'equal' && leaf.value === null) || (leaf.op === 'exists' && leaf.value === false)
    : leaf.op === 'exists' && leaf.value === true;
}

export const assignAction: ActionDefinition<AssignAction, ResolvedAssign> = {
  type: 'assign',
  schema: {
    type: 'string',
    minLength: 1,
    description:
      "Assign the contact to a member (name, email or uuid), or `round-robin` over the organization's members.",
  },
  repeat: 'state-checked',
  parse: (value) => (text(value) === undefined ? undefined : { member: text(value)! }),
  label: (a) => `assign ${quoted(a.member)}`,
  // round-robin draws from the active members at run time: no name to check.
  names: (a) =>
    a.member.toLowerCase() === 'round-robin' ? [] : [{ kind: 'member', name: a.member, path: [] }],
  effect: {
    writes: () => 'contact.assigneeId',
    emits: () => ['contact.updated'],
    alwaysWrites: (a) => isRoundRobin(a.member),
    falsifies: (_a, leaf) => assigneeLeafFalsified(true, leaf),
    undoneBy: (a, other) =>
      (other.type === 'assign' && !sameName(other.member, a.member)) || other.type === 'unassign'
        ? { what: 'assignee', conflict: false }
        : undefined,
  },
  resolve: async (a, env) => ({ type: 'assign', memberId: await env.member(a.member) }),
  guard: (r, contact) =>
    contact.assigneeId === r.memberId
      ? skip('no_change', `contact is already assigned to ${r.memberId}`)
      : PROCEED,
  apply: (r, contact) => ({ ...contact, assigneeId: r.memberId }),
  execute: (r, env) => env.gateway.updateContact(env.contact.id, { assigneeId: r.memberId }, env.opts),
};
