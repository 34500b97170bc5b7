// `assign: { pool: [...], strategy, weights, skip-inactive, max-open }`: the YAML object read into
// a PoolSpec, with every mistake named (docs/RULES.md, problem `invalid-pool`). Pure.
import { createHash } from 'node:crypto';

export const POOL_STRATEGIES = ['round-robin', 'least-open', 'weighted'] as const;
export type PoolStrategy = (typeof POOL_STRATEGIES)[number];

export interface PoolSpec {
  /** Member names, emails, uuids, or `role: <role>`. */
  pool: string[];
  strategy: PoolStrategy;
  weights?: Record<string, number>;
  /** Default true: members whose status is not `active` are left out. */
  skipInactive: boolean;
  maxOpen?: number;
}

export type PoolProblem = { key: string; message: string };

const KEYS = ['pool', 'strategy', 'weights', 'skip-inactive', 'max-open'];

/** The entry of a pool as written: a string, or `{ role: x }` read as `role: x`. */
function entryOf(item: unknown): string | undefined {
  if (typeof item === 'string' && item.trim()) return item.trim();
  if (item && typeof item === 'object' && !Array.isArray(item)) {
    const role = (item as Record<string, unknown>).role;
    if (typeof role === 'string' && role.trim() && Object.keys(item).length === 1)
      return `role: ${role.trim()}`;
  }
  return undefined;
}

export function parsePoolSpec(value: Record<string, unknown>): { spec?: PoolSpec; problems: PoolProblem[] } {
  const problems: PoolProblem[] = [];
  for (const key of Object.keys(value))
    if (!KEYS.includes(key))
      problems.push({ key, message: `unknown key "${key}" (known: ${KEYS.join(', ')})` });
  const raw = value.pool;
  const pool = Array.isArray(raw) ? raw.map(entryOf) : [];
  if (!Array.isArray(raw) || raw.length === 0)
    problems.push({ key: 'pool', message: 'pool needs at least one member or `role: <role>`' });
  pool.forEach((e, i) => {
    if (e === undefined)
      problems.push({ key: 'pool', message: `pool item ${i + 1} is neither a member nor { role: <role> }` });
  });
  const strategy = value.strategy ?? 'round-robin';
  if (!(POOL_STRATEGIES as readonly unknown[]).includes(strategy))
    problems.push({ key: 'strategy', message: `strategy must be one of ${POOL_STRATEGIES.join(', ')}` });
  const weights = value.weights as Record<string, unknown> | undefined;
  if (weights !== undefined) {
    if (strategy !== 'weighted')
      problems.push({ key: 'weights', message: 'weights need strategy: weighted' });
    if (!weights || typeof weights !== 'object' || Array.isArray(weights))
      problems.push({ key: 'weights', message: 'weights is a map of member to a whole number ≥ 0' });
    else
      for (const [k, w] of Object.entries(weights))
        if (!Number.isInteger(w) || (w as number) < 0)
          problems.push({ key: 'weights', message: `weight of "${k}" must be a whole number ≥ 0` });
        else if (
          !pool.some((e) => e !== undefined && e.toLowerCase() === k.toLowerCase()) &&
          !pool.some((e) => e?.startsWith('role:'))
        )
          problems.push({ key: 'weights', message: `weight for "${k}", who is not in the pool` });
  }
  const maxOpen = value['max-open'];
  if (maxOpen !== undefined && (!Number.isInteger(maxOpen) || (maxOpen as number) < 1))
    problems.push({ key: 'max-open', message: 'max-open must be a whole number ≥ 1' });
  const skipInactive = value['skip-inactive'] ?? true;
  if (typeof skipInactive !== 'boolean')
    problems.push({ key: 'skip-inactive', message: 'skip-inactive is true or false' });
  if (problems.length) return { problems };
  return {
    problems,
    spec: {
      pool: pool as string[],
      strategy: strategy as PoolStrategy,
      ...(weights ? { weights: weights as Record<string, number> } : {}),
      skipInactive: skipInactive as boolean,
      ...(maxOpen !== undefined ? { maxOpen: maxOpen as number } : {}),
    },
  };
}

/** How labels and traces show a pool: `pool [Ana, role: billing] least-open max-open 5`. */
/**
 * The name of a pool's own turn counter when no rule action names it (dry runs): a hash of the
 * whole spec. The runner names it by rule id and action index instead (poolRotationOf), so two
 * rules writing the same pool keep turns of their own.
 */
export function poolRotation(spec: PoolSpec): string {
  return `spec:${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 16)}`;
}

/** The turn counter of the pool of action `action` of rule `ruleId`. */
export function poolRotationOf(ruleId: string, action: number): string {
  return `rule:${ruleId}#${action}`;
}

export function poolLabel(spec: PoolSpec): string {
  const max = spec.maxOpen !== undefined ? ` max-open ${spec.maxOpen}` : '';
  return `pool [${spec.pool.join(', ')}] ${spec.strategy}${max}`;
}
