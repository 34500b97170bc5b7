// One DataSource definition for the app, the migration CLI and the tests.
import 'reflect-metadata';
import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { loadConfig } from '../config/load-config';
import { ENTITIES } from './entities';

export function dataSourceOptions(databaseUrl: string, overrides: Partial<DataSourceOptions> = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    // Compiled migrations live in dist/migrations; tests running from TS load them from migrations/.
    migrations: [join(__dirname, '..', '..', 'migrations', '*.{js,ts}')],
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    // Several concurrent action jobs each hold a connection while they own a contact's lock.
    extra: { max: 30, connectionTimeoutMillis: 5000 },
    ...overrides,
  } as DataSourceOptions;
}

/** Used by the TypeORM CLI (`npm run migration:generate`). */
export default new DataSource(dataSourceOptions(loadConfig().databaseUrl));
