// A plain pg Pool as a repository's Transactional, for tools that only read (the CLI's forecast
// reading the ledger): a transaction is refused, so a repository's writing method fails loudly.
import type { Pool } from 'pg';
import type { Transactional } from './queryable';

export function readOnlyPool(pool: Pool, why: string): Transactional {
  return {
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    transaction: () => Promise.reject(new Error(why)),
  };
}
