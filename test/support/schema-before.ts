// A fresh database at the schema just before one migration: every migration applied, then that
// one and those after it undone. For tests of a migration on a database filled by the schema
// before it (fill, then `ds.runMigrations()`).
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/runtime/config/load-config';
import { dataSourceOptions } from '../../src/persistence/schema/data-source';
import { ensureDatabase } from '../../src/persistence/schema/migrate';

/** `migration`: the 13-digit timestamp of its class name. Drop the database with its url. */
export async function databaseBefore(migration: number): Promise<{ url: string; ds: DataSource }> {
  const base = new URL(loadConfig().databaseUrl);
  base.pathname = `/crmr_test_${process.pid}_${randomUUID().slice(0, 8)}`;
  const url = base.toString();
  await ensureDatabase(url);
  const ds = new DataSource(dataSourceOptions(url, { extra: { max: 3 } }));
  await ds.initialize();
  await ds.runMigrations();
  const later = ds.migrations.filter((m) => Number(/(\d{13})$/.exec(m.name ?? '')?.[1]) >= migration);
  if (later.length === 0) throw new Error(`no migration ${migration}`);
  for (let i = 0; i < later.length; i++) await ds.undoLastMigration();
  return { url, ds };
}
