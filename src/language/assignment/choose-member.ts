// The member an assignment pool gives a contact, and why: who was eligible, why the others were
// not, which strategy picked whom. One function for the runner, forecasts, rule tests and dry runs,
// so a preview and a live run choose alike. Pure: members, open counts and the rotation counter
// are read by the caller (the directory, the gateway, Postgres) and passed in.
import type { PoolSpec } from './pool-spec';

/** A member as the CRM lists it (GET /v1/users): role and status are free strings there. */
export interface PoolMember {
  id: string;
  name: string;
  email: string;
  role?: string | null;
  status?: string | null;
}

export interface PoolInputs {
  members: readonly PoolMember[];
  /** Open conversations per member id (least-open, max-open); absent: not counted. */
  openCounts?: Readonly<Record<string, number>>;
  /** The shared rotation's next value (1-based): round-robin, and ties of the other strategies. */
  turn: number;
}

export type Exclusion = { member: string; why: 'inactive' | 'at_max_open' | 'not_counted' };

export type PoolChoice =
  | {
      picked: PoolMember;
      strategy: PoolSpec['strategy'];
      eligible: string[];
      excluded: Exclusion[];
      why: string;
    }
  | {
      picked: undefined;
      reason: 'pool_full' | 'pool_empty';
      eligible: [];
      excluded: Exclusion[];
      why: string;
    };

const fold = (s: string) => s.trim().toLowerCase();
const isActive = (m: PoolMember) => !m.status || fold(m.status) === 'active';
const byId = (a: PoolMember, b: PoolMember) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The members an entry names: a member by id, name or email, or every member of `role: x`. */
export function membersOfEntry(members: readonly PoolMember[], entry: string): PoolMember[] {
  const role = /^role:\s*(.+)$/i.exec(entry);
  if (role) return members.filter((m) => typeof m.role === 'string' && fold(m.role) === fold(role[1]));
  const exact = members.filter((m) => m.id === entry || m.name === entry || m.email === entry);
  if (exact.length) return exact.slice(0, 1);
  const folded = members.filter((m) =>
    [m.name, m.email].some((l) => typeof l === 'string' && fold(l) === fold(entry)),
  );
  return folded.length === 1 ? folded : [];
}

/** The pool's members, each once, sorted by id so every process sees the same order. */
export function poolMembers(members: readonly PoolMember[], spec: PoolSpec): PoolMember[] {
  const seen = new Map<string, PoolMember>();
  for (const entry of spec.pool) for (const m of membersOfEntry(members, entry)) seen.set(m.id, m);
  return [...seen.values()].sort(byId);
}

/** The weight the spec gives a member (by id, name or email), 1 when it names none. */
function weightOf(spec: PoolSpec, m: PoolMember): number {
  for (const [key, w] of Object.entries(spec.weights ?? {}))
    if (key === m.id || fold(key) === fold(m.name) || fold(key) === fold(m.email)) return w;
  return 1;
}

/** Weighted: the turn walks a cycle in which each member appears `weight` times. */
function weightedPick(eligible: PoolMember[], spec: PoolSpec, turn: number): PoolMember {
  const slots = eligible.flatMap((m) => Array<PoolMember>(Math.max(0, weightOf(spec, m))).fill(m));
  const cycle = slots.length ? slots : eligible;
  return cycle[(((turn - 1) % cycle.length) + cycle.length) % cycle.length];
}

export function chooseMember(spec: PoolSpec, inputs: PoolInputs): PoolChoice {
  const excluded: Exclusion[] = [];
  const counted = spec.strategy === 'least-open' || spec.maxOpen !== undefined;
  const eligible: PoolMember[] = [];
  for (const m of poolMembers(inputs.members, spec)) {
    const open = inputs.openCounts?.[m.id];
    if (spec.skipInactive && !isActive(m)) excluded.push({ member: m.name, why: 'inactive' });
    else if (counted && open === undefined) excluded.push({ member: m.name, why: 'not_counted' });
    else if (spec.maxOpen !== undefined && open! >= spec.maxOpen)
      excluded.push({ member: m.name, why: 'at_max_open' });
    else eligible.push(m);
  }
  const names = eligible.map((m) => m.name);
  if (eligible.length === 0) {
    const full = excluded.some((e) => e.why === 'at_max_open');
    const reason = full ? 'pool_full' : 'pool_empty';
    const why = full
      ? `every eligible member has ${spec.maxOpen} or more open conversations`
      : 'no member of the pool can take contacts';
    return { picked: undefined, reason, eligible: [], excluded, why };
  }
  const rotate = (list: PoolMember[]) =>
    list[(((inputs.turn - 1) % list.length) + list.length) % list.length];
  let picked: PoolMember;
  let why: string;
  if (spec.strategy === 'least-open') {
    const fewest = Math.min(...eligible.map((m) => inputs.openCounts![m.id]));
    const tied = eligible.filter((m) => inputs.openCounts![m.id] === fewest);
    picked = rotate(tied);
    why = `least-open: ${picked.name} has ${fewest} open${tied.length > 1 ? ` (tied with ${tied.length - 1}, rotation broke the tie)` : ''}`;
  } else if (spec.strategy === 'weighted') {
    picked = weightedPick(eligible, spec, inputs.turn);
    why = `weighted: ${picked.name} (weight ${weightOf(spec, picked)}) at turn ${inputs.turn}`;
  } else {
    picked = rotate(eligible);
    why = `round-robin: ${picked.name} at turn ${inputs.turn} of ${eligible.length}`;
  }
  return { picked, strategy: spec.strategy, eligible: names, excluded, why };
}
