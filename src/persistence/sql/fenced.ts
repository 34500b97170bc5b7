// A connection that checks a condition before every statement: the action runner's ledger writes go
// through the pool fenced by the contact's lease, so a job that lost its lease writes nothing more.
import type { Transactional } from './queryable';

/**
 * `db`, with `check()` (which throws to refuse) run before each statement and each transaction.
 * A refusal is a rejected promise, never a synchronous throw: statements started side by side
 * (Promise.all) all fail the same way, none left rejected and unhandled.
 */
export function fenced(db: Transactional, check: () => void): Transactional {
  return {
    query: async (sql, params) => (check(), db.query(sql, params)),
    transaction: async (fn) => (check(), db.transaction(fn)),
  };
}
