// A fresh, migrated database per test file (the same way the engine harness makes one), for
// tests that need the mirror tables but not a whole engine.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../../src/config/load-config';
import { dataSourceOptions } from '../../../src/db/data-source';
import { dropDatabase, ensureDatabase, runMigrations } from '../../../src/db/migrate';

export interface TestDb {
  url: string;
  dataSource: DataSource;
  drop(): Promise<void>;
}

export async function createTestDb(): Promise<TestDb> {
  const base = new URL(loadConfig().databaseUrl);
  base.pathname = `/crmr_seg_${process.pid}_${randomUUID().slice(0, 8)}`;
  const url = base.toString();
  await ensureDatabase(url);
  await runMigrations(url);
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
