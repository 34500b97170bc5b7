// Every statement on `rule_set_refs`: the rows an inbox row's decision names (migration
// 1796020000000). They are written only as part of a claim, so this file holds SQL to chain, not
// a class: a claim that stores decisions by reference makes sure, in the same statement, that each
// reference has its row (withRuleSetRefs), unless this process has already seen that row committed.
import type { UnmatchedDecision } from './inbox-event.entity';

type Decisions = ReadonlyMap<string, UnmatchedDecision | null>;

/**
 * A data-modifying CTE body: the reference row of every decision object in `decisions` (a jsonb
 * parameter: id → decision or null). Its id is `rule_set_ref(decision)`, the value the claim
 * stores, so a row already there (the usual case) is left as it is.
 */
function insertRuleSetRefsSql(decisions: string): string {
  return `INSERT INTO rule_set_refs (id, rule_set_version, rules_commit)
          SELECT DISTINCT rule_set_ref(d), d->>'set', coalesce(d->>'commit', '')
            FROM jsonb_each(${decisions}::jsonb) AS e(id, d) WHERE jsonb_typeof(d) = 'object'
          ON CONFLICT (id) DO NOTHING`;
}

/**
 * Per database (its DataSource), the references this process has seen committed. A reference row
 * is never deleted, so a claim whose decisions name only these leaves the insert out: the insert's
 * plan and execution, about 0.2 ms of the matched write at p50 (docs/BENCHMARKS.md, round 4,
 * session 10), are paid once per rule set and process instead of at every claim.
 */
const committed = new WeakMap<object, Set<string>>();

const keyOf = (d: UnmatchedDecision): string => `${d.set}\n${d.commit ?? ''}`;
// A transaction's EntityManager names its DataSource as `connection`; the pool is its own.
const databaseOf = (db: object): object => (db as { connection?: object }).connection ?? db;

/** True when every decision names a reference this process has seen committed in `db`'s database. */
function ruleSetRefsKnown(db: object, decisions: Decisions): boolean {
  const known = committed.get(databaseOf(db));
  for (const d of decisions.values()) if (d && !known?.has(keyOf(d))) return false;
  return true;
}

/** A transaction's EntityManager (or a QueryRunner) in an open transaction: its writes may still roll back. */
function inTransaction(db: object): boolean {
  const runner = (db as { queryRunner?: object }).queryRunner ?? db;
  return Boolean((runner as { isTransactionActive?: boolean }).isTransactionActive);
}

/**
 * Notes the decisions' references as committed, after a statement on `db` that inserted them
 * succeeded. Inside a transaction nothing is noted: it may still roll back.
 */
function noteRuleSetRefsCommitted(db: object, decisions: Decisions): void {
  if (inTransaction(db)) return;
  const database = databaseOf(db);
  const known = committed.get(database) ?? new Set<string>();
  committed.set(database, known);
  for (const d of decisions.values()) if (d) known.add(keyOf(d));
}

/**
 * Runs a statement that claims events with `decisions` (bound as the jsonb parameter
 * `decisionsParam`): `statement` gets the CTE that inserts their reference rows (`refs AS (...)`,
 * to open its WITH), or '' when this process has seen every one committed. Once the statement has
 * succeeded outside a transaction, its references count as committed.
 */
export async function withRuleSetRefs<T>(
  db: object,
  decisions: Decisions,
  decisionsParam: string,
  statement: (refsCte: string) => Promise<T>,
): Promise<T> {
  const known = ruleSetRefsKnown(db, decisions);
  const result = await statement(known ? '' : `refs AS (${insertRuleSetRefsSql(decisionsParam)})`);
  if (!known) noteRuleSetRefsCommitted(db, decisions);
  return result;
}
