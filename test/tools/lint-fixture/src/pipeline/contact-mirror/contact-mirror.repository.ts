// Fixture: a repository holds SQL text and runs it (allowed).
interface Db {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export const find = (db: Db, id: string) => db.query(`SELECT raw FROM contact_mirror WHERE id = $1`, [id]);
