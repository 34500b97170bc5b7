// `- assign: Ana Ops` (name, email, uuid or round-robin) -> PATCH /v1/contacts/{id} { assigneeId }
// (docs/CRM-API.md (assumptions)).
import type { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import type { Uuid } from '@crm-rules/crm-contract';
import { PROCEED, quoted, sameName, skip, text, type ActionDefinition } from './action-definition';
import { isPlainObject, type ProblemCollector } from '../rules/format/problem-collector';
import type { YamlPath } from '../rules/format/yaml-source';
import type { Exclusion, PoolChoice } from '../assignment/choose-member';
import { parsePoolSpec, poolLabel, POOL_STRATEGIES, type PoolSpec } from '../assignment/pool-spec';

/** `member`: a name, email, uuid or `round-robin`; for a pool, the pool's label (`pool: [...]`). */
export type AssignAction = { type: 'assign'; member: string; pool?: PoolSpec };
/** `pool`: how a pool chose (for the run's trace); `unavailable`: nobody could take the contact. */
export type ResolvedAssign = { type: 'assign'; memberId: Uuid; pool?: PoolTrace };
export type PoolTrace = {
  why: string;
  eligible: string[];
  excluded: Exclusion[];
  unavailable?: 'pool_full' | 'pool_empty';
};

/** A pool's choice as the resolved action carries it. */
export function poolResolved(choice: PoolChoice): ResolvedAssign {
  const trace = { why: choice.why, eligible: choice.eligible, excluded: choice.excluded };
  return choice.picked
    ? { type: 'assign', memberId: choice.picked.id, pool: trace }
    : { type: 'assign', memberId: '', pool: { ...trace, unavailable: choice.reason } };
}

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
    description:
      "Assign the contact to a member (name, email or uuid), `round-robin` over the organization's members, or a pool: { pool: [members or { role }], strategy, weights, skip-inactive, max-open } (docs/RULES.md, Assignment pools).",
    // One schema for both forms, as send-message does: one problem for a wrong value, not one per branch.
    type: ['string', 'object'],
    minLength: 1,
    additionalProperties: false,
    required: ['pool'],
    properties: {
      pool: {
        type: 'array',
        minItems: 1,
        description: 'Member names, emails or uuids, or { role: <role> } for every member with that role.',
        items: {
          type: ['string', 'object'],
          minLength: 1,
          additionalProperties: false,
          required: ['role'],
          properties: {
            role: { type: 'string', minLength: 1, description: 'Every member whose role is this.' },
          },
        },
      },
      strategy: { enum: [...POOL_STRATEGIES], description: 'Default round-robin.' },
      weights: {
        type: 'object',
        additionalProperties: { type: 'integer', minimum: 0 },
        description: 'strategy weighted: member -> weight (default 1).',
      },
      'skip-inactive': {
        type: 'boolean',
        description: 'Leave out members whose status is not active (default true).',
      },
      'max-open': {
        type: 'integer',
        minimum: 1,
        description:
          'Leave out members with this many open conversations or more; all full: skipped pool_full.',
      },
    },
  },
  repeat: 'state-checked',
  parse: (value, path, ctx) => (isPlainObject(value) ? parsePool(value, path, ctx) : memberOf(value)),
  label: (a) => `assign ${a.pool ? poolLabel(a.pool) : quoted(a.member)}`,
  // round-robin draws from the active members at run time: no name to check. A role no member
  // holds would leave its share of the pool empty for ever (pool_empty): checked like a name.
  names: (a) =>
    a.pool
      ? a.pool.pool.map((name, i) => {
          const role = /^role:\s*(.+)$/i.exec(name);
          return role
            ? { kind: 'role' as const, name: role[1].trim(), path: ['pool', i] }
            : { kind: 'member' as const, name, path: ['pool', i] };
        })
      : isRoundRobin(a.member)
        ? []
        : [{ kind: 'member', name: a.member, path: [] }],
  effect: {
    writes: () => 'contact.assigneeId',
    emits: () => ['contact.updated'],
    alwaysWrites: (a) => isRoundRobin(a.member) || a.pool !== undefined,
    falsifies: (_a, leaf) => assigneeLeafFalsified(true, leaf),
    undoneBy: (a, other) =>
      (other.type === 'assign' && !sameName(other.member, a.member)) || other.type === 'unassign'
        ? { what: 'assignee', conflict: false }
        : undefined,
  },
  resolve: async (a, env) =>
    a.pool ? poolResolved(await env.pool(a.pool)) : { type: 'assign', memberId: await env.member(a.member) },
  guard: (r, contact) =>
    r.pool?.unavailable
      ? skip(r.pool.unavailable, r.pool.why)
      : contact.assigneeId === r.memberId
        ? skip('no_change', `contact is already assigned to ${r.memberId}`)
        : PROCEED,
  apply: (r, contact) => ({ ...contact, assigneeId: r.memberId }),
  execute: (r, env) => env.gateway.updateContact(env.contact.id, { assigneeId: r.memberId }, env.opts),
};

const memberOf = (value: unknown) => (text(value) === undefined ? undefined : { member: text(value)! });

/** The pool form; each mistake is an `invalid-pool` problem at its key. */
function parsePool(value: Record<string, unknown>, path: YamlPath, ctx: ProblemCollector) {
  const { spec, problems } = parsePoolSpec(value);
  for (const p of problems) ctx.error([...path, p.key], 'invalid-pool', p.message, 'key');
  return spec ? { member: poolLabel(spec), pool: spec } : undefined;
}
