// A fresh, migrated database per test file. Light on purpose: tests that need tables but no
// engine import this without loading the engine's module graph.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/runtime/config/load-config';
import { dataSourceOptions } from '../../src/persistence/schema/data-source';
import { dropDatabase, ensureDatabase, runMigrations } from '../../src/persistence/schema/migrate';

export async function testDatabaseUrl(): Promise<string> {
  const base = new URL(loadConfig().databaseUrl);
  base.pathname = `/crmr_test_${process.pid}_${randomUUID().slice(0, 8)}`;
  const url = base.toString();
  await ensureDatabase(url);
  await runMigrations(url);
  return url;
}

export interface TestDb {
  url: string;
  dataSource: DataSource;
  drop(): Promise<void>;
}

/** A fresh database with an open DataSource on it. */
export async function createTestDb(): Promise<TestDb> {
  const url = await testDatabaseUrl();
  const dataSource = new DataSource(dataSourceOptions(url, { extra: { max: 5 } }));
  await dataSource.initialize();
  return {
    url,
    dataSource,
    drop: async () => {
      await dataSource.destroy();
      await dropDatabase(url);
    },
  };
}
