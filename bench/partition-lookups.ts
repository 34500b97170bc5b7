// npm run bench:partition-lookups — what a look-up by id costs on the partitioned ledger as days
// accumulate. The events worker and the runner find inbox events and runs by id (their jobs carry
// no time). By id alone Postgres cannot prune to one day: it plans and probes every day. A ledger id
// names its day (src/persistence/partitions/ledger-id.ts), which the repositories add to every
// look-up by id. This times both forms, and the same statements on an unpartitioned copy, with the
// days a fresh install has (today, 3 ahead, the legacy past, the DEFAULT) and with 30 more.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/persistence/schema/data-source';
import { dailyPartition } from '../src/persistence/partitions/ledger-partitions';
import { sameDay } from '../src/persistence/partitions/ledger-id';
import { LedgerPartitionsRepository } from '../src/persistence/partitions/ledger-partitions.repository';
import { benchDatabase, printTable } from './bench-support';

const STATEMENTS = Number(process.env.BENCH_STATEMENTS ?? 3000);
const EXTRA_DAYS = Number(process.env.BENCH_EXTRA_DAYS ?? 30);
const DAY_MS = 24 * 60 * 60 * 1000;

interface Probe {
  label: string;
  sql: string;
  params: (row: { id: string }) => unknown[];
}

const PROBES: Probe[] = [
  {
    label: 'unpartitioned copy: read by id',
    sql: `SELECT id, payload FROM inbox_flat WHERE id = $1`,
    params: (r) => [r.id],
  },
  {
    label: 'unpartitioned copy: update by id',
    sql: `UPDATE inbox_flat SET attempts = attempts WHERE id = $1`,
    params: (r) => [r.id],
  },
  {
    label: 'inbox: read by id',
    sql: `SELECT id, payload FROM inbox_events WHERE id = $1`,
    params: (r) => [r.id],
  },
  {
    label: 'inbox: read by id, its day named by the id',
    sql: `SELECT id, payload FROM inbox_events WHERE id = $1 AND ${sameDay('event_at', '$1')}`,
    params: (r) => [r.id],
  },
  {
    label: 'inbox: update by id',
    sql: `UPDATE inbox_events SET attempts = attempts WHERE id = $1`,
    params: (r) => [r.id],
  },
  {
    label: 'inbox: update by id, its day named by the id',
    sql: `UPDATE inbox_events SET attempts = attempts WHERE id = $1 AND ${sameDay('event_at', '$1')}`,
    params: (r) => [r.id],
  },
];

/** Microseconds per statement, one connection, statements one after another (as a worker runs them). */
async function time(ds: DataSource, probe: Probe, rows: { id: string; at: Date }[]): Promise<number> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    for (const row of rows.slice(0, 200)) await runner.query(probe.sql, probe.params(row)); // warm-up
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < STATEMENTS; i++) {
      const row = rows[i % rows.length];
      await runner.query(probe.sql, probe.params(row));
    }
    return Number(process.hrtime.bigint() - t0) / 1e3 / STATEMENTS;
  } finally {
    await runner.release();
  }
}

async function main(): Promise<void> {
  const db = await benchDatabase('lookups');
  const ds = new DataSource(dataSourceOptions(db.url, { extra: { max: 2 } }));
  await ds.initialize();
  try {
    const now = new Date();
    await ds.query(
      `INSERT INTO inbox_events (id, event_key, type, payload, event_at, status)
       SELECT ledger_uuid($1), 'id:' || gen_random_uuid(), 'contact.updated', '{"type":"contact.updated","data":{}}', $1, 'processed'
         FROM generate_series(1, 20000)`,
      [now],
    );
    // The same rows in a plain table, as the inbox was before it was partitioned.
    await ds.query(`CREATE TABLE inbox_flat AS SELECT * FROM inbox_events`);
    await ds.query(`ALTER TABLE inbox_flat ADD PRIMARY KEY (id)`);
    await ds.query(`ANALYZE inbox_events, inbox_flat`);
    const rows: { id: string; at: Date }[] = (
      await ds.query(`SELECT id, event_at AS at FROM inbox_events ORDER BY random() LIMIT 5000`)
    ).map((r: { id: string; at: Date }) => r);
    const figures: Record<string, string | number>[] = [];
    const measureAll = async (days: string) => {
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'inbox_events'::regclass`,
      );
      for (const probe of PROBES)
        figures.push({
          partitions: n,
          days,
          statement: probe.label,
          'µs each': (await time(ds, probe, rows)).toFixed(0),
        });
    };
    await measureAll('a fresh install');
    // RETENTION_DAYS more days (ahead of today: the past is the legacy range on this database).
    const partitions = new LedgerPartitionsRepository(ds);
    const days = Array.from({ length: EXTRA_DAYS }, (_, i) =>
      dailyPartition('inbox_events', new Date(now.getTime() + (4 + i) * DAY_MS)),
    );
    await partitions.createDays('inbox_events', days);
    await measureAll(`+${EXTRA_DAYS} days`);
    console.log(`\n${STATEMENTS} statements each, one connection, run alone for clean figures\n`);
    printTable(figures);
  } finally {
    await ds.destroy();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
