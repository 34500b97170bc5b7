// The statements on the server's catalogue of databases (pg_database), over a connection to the
// `postgres` maintenance database: migrate.ts creates a missing database at set-up, the end-to-end
// tests drop theirs. And the server's plain answer, for tools that must tell an unreachable
// database from an empty result before they read. `name` is checked by the caller ([A-Za-z0-9_]+): identifiers cannot be parameters.
import type { Client } from 'pg';

export async function databaseExists(maintenance: Client, name: string): Promise<boolean> {
  const found = await maintenance.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return found.rowCount !== 0;
}

export async function createDatabase(maintenance: Client, name: string): Promise<void> {
  await maintenance.query(`CREATE DATABASE "${name}"`);
}

export async function dropDatabaseNamed(maintenance: Client, name: string): Promise<void> {
  await maintenance.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** One round trip: rejects when the database does not answer. */
export async function serverAnswers(db: { query(sql: string): Promise<unknown> }): Promise<void> {
  await db.query('SELECT 1');
}
