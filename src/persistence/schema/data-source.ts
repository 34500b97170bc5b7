// One DataSource definition for the app, the migration CLI and the tests.
import 'reflect-metadata';
import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';

export function dataSourceOptions(
  databaseUrl: string,
  overrides: Partial<DataSourceOptions> = {},
  poolMax = 30,
): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    // Compiled migrations live in dist/migrations; tests running from TS load them from migrations/.
    migrations: [join(__dirname, '..', '..', '..', 'migrations', '*.{js,ts}')],
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    // Action jobs hold no connection between statements (a contact's lease is a row: contact-lease.ts).
    // synchronous_commit=off by default: every ledger step is rebuilt from what is durable (an
    // inbox row still pending is matched again, a row left running is re-checked against a fresh
    // read of the contact), so losing the last few hundred ms of commits in a Postgres crash loses
    // no event and repeats no write. The two commits that promise something to the outside are
    // synchronous: the inbox insert (before the 2xx) and an action's success (after the CRM write).
    // Measured: per-statement WAL flushes were the e2e latency's main cost (docs/BENCHMARKS.md).
    // Idle connections are kept for 10 minutes (node-postgres closes them after 10 s by default): a
    // new one is a new Postgres backend whose first statements load the catalog of every daily
    // partition and plan the ledger look-ups again (migration 1796010000000), tens of ms for the
    // events that open it. The pool's size still bounds them (docs/SCALING.md). An idle connection
    // keeps no process alive (allowExitOnIdle): a CLI that is done exits at once.
    extra: {
      max: poolMax,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 10 * 60_000,
      allowExitOnIdle: true,
      options: '-c synchronous_commit=off',
    },
    ...overrides,
  } as DataSourceOptions;
}
