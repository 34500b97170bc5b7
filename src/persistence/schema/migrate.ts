// Creates the database when missing and runs pending migrations. Used by scripts/setup.js,
// `npm run migration:run` and the end-to-end tests (each test file gets its own database).
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source';
import { loadConfig } from '../../runtime/config/load-config';
import { createDatabase, databaseExists, dropDatabaseNamed } from './databases.repository';

export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`database name must be [A-Za-z0-9_]+ (got "${name}")`);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    if (!(await databaseExists(client, name))) {
      try {
        await createDatabase(client, name);
      } catch (err) {
        // Two set-ups racing: the other one created it.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await dropDatabaseNamed(client, name);
  } finally {
    await client.end();
  }
}

export async function runMigrations(databaseUrl: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(databaseUrl, { extra: { max: 2 } }));
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  const url = loadConfig().databaseUrl;
  ensureDatabase(url)
    .then(() => runMigrations(url))
    .then((applied) =>
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations'),
    )
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
