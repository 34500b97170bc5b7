// A connection that checks a condition before every statement: the action runner's ledger writes go
// through the pool fenced by the contact's lease, so a job that lost its lease writes nothing more.
import type { Transactional } from './queryable';

/** `db`, with `check()` (which throws to refuse) run before each statement and each transaction. */
export function fenced(db: Transactional, check: () => void): Transactional {
  return {
    query: (sql, params) => (check(), db.query(sql, params)),
    transaction: (fn) => (check(), db.transaction(fn)),
  };
}
