// Fixture: the SQL toolkit may hold SQL text and run it (allowed).
interface Db {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export const lock = (db: Db, key: number) => db.query('SELECT pg_advisory_lock($1)', [key]);
