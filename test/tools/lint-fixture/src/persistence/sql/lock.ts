// Fixture: the SQL toolkit may run the statements a repository passes it (allowed), but holds no
// SQL text of its own (reported).
interface Db {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export const run = (db: Db, sql: string, params: unknown[]) => db.query(sql, params);
export const lock = (db: Db, key: number) => db.query('SELECT pg_advisory_lock($1)', [key]);
