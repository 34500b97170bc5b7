// npm run bench:storage — what one event leaves in Postgres: rows written (inserts, updates and
// deletes, from pg_stat_database), rows added and bytes grown per table (count(*) and
// pg_total_relation_size, indexes and TOAST included) and the lasting part of that growth (less the
// heap space VACUUM frees: dead row versions), per event, for two kinds of event on a rule
// set with 50 rules listening to the event's kind: `unmatched` (no rule matches) and `matched` (one
// rule matches; its add-tag is a guarded no-op, so no CRM call). One ROLE=api and one ROLE=worker
// process, the CRM sandbox and the load generator in processes of their own, as bench:throughput.
// Issue 35's goal for an unmatched event: at most 2 rows written and 0.5 KB of lasting storage.
// `unmatched-steady` measures a second batch of unmatched events after the first (see MODES).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { benchDatabase, dropRedisPrefix, printTable } from './bench-support';
import { fillMirror } from './mirror-fill';
import {
  benchEngineEnv,
  forkBench,
  SEGMENT_RULE,
  startEngineProcess,
  VIP_TAG_ID,
  type EngineProcess,
} from './throughput-support';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 5_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 3_000);
const LISTENING_RULES = 50;
const LIMIT = 600;
const WINDOW_MS = 6000;
const SECRET = 'whsec_bench_0123456789abcdef0123456789';
const ADMIN_TOKEN = randomUUID();
// `unmatched-steady`: a second batch of unmatched events once the first is vacuumed. Its index
// entries fill the room the first batch's left in half-empty pages (the claim's UPDATE gives each
// row a second entry in every index, which VACUUM removes but whose pages stay), as they do in a
// running system: what an unmatched event costs over time, where `unmatched` is a first burst.
const MODES = [
  { mode: 'unmatched', load: 'no-action' },
  { mode: 'unmatched-steady', load: 'no-action' },
  { mode: 'matched', load: 'guarded' },
] as const;

/** 48 rules on contact.updated that never match, the two of bench:throughput, and its segment rule. */
function writeRules(dir: string): void {
  const never = Array.from(
    { length: LISTENING_RULES - 2 },
    (_, i) =>
      `rule: st-never-${i}\non: contact.updated\nif:\n  all:\n    - { fact: contact.customFields.plan, operator: equal, value: never-${i} }\ndo: [{ add-tag: customer }]\n`,
  );
  const own = [
    'rule: tp-upgrade\non: contact.updated\nif:\n  all:\n    - { fact: contact.customFields.plan, operator: equal, value: enterprise }\ndo: [{ add-tag: vip }]\n',
    'rule: tp-archived\non: contact.updated\nif:\n  all:\n    - { fact: contact.status, operator: equal, value: archived }\ndo: [{ add-tag: customer }]\n',
    `rule: ${SEGMENT_RULE}\non:\n  schedule: "0 0 1 1 *"\n  segment:\n    filters: { tagIds: [${VIP_TAG_ID}], status: archived, isBlocked: true, createdAfter: now-2d }\nwhen: entered\ndo: [{ add-tag: customer }]\n`,
  ];
  writeFileSync(join(dir, 'rules.yaml'), [...never, ...own].join('---\n'));
}

interface TableSize {
  rows: number;
  bytes: number;
  /** Heap space VACUUM found free for new rows (pg_freespacemap): on disk, but not lasting. */
  free: number;
  /** Of `bytes`, the table's indexes. */
  indexes: number;
}

/** Every table of the schema: its live rows, its total size on disk and its heap's free space. */
async function tableSizes(ds: DataSource): Promise<Map<string, TableSize>> {
  const tables: { name: string; bytes: string; free: string; indexes: string }[] = await ds.query(
    `SELECT relname AS name, pg_total_relation_size(relid)::bigint AS bytes,
            (SELECT COALESCE(sum(avail), 0) FROM pg_freespace(relid))::bigint AS free,
            pg_indexes_size(relid)::bigint AS indexes
       FROM pg_stat_user_tables`,
  );
  const sizes = new Map<string, TableSize>();
  for (const t of tables) {
    // ONLY: a partitioned table's own rows (none); each partition counts its own, once.
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM ONLY "${t.name}"`);
    sizes.set(t.name, { rows: n, bytes: Number(t.bytes), free: Number(t.free), indexes: Number(t.indexes) });
  }
  return sizes;
}

async function rowsWritten(ds: DataSource): Promise<number> {
  await ds.query(`SELECT pg_stat_clear_snapshot()`);
  const [s] = await ds.query(
    `SELECT (tup_inserted + tup_updated + tup_deleted)::bigint AS rows
       FROM pg_stat_database WHERE datname = current_database()`,
  );
  return Number(s.rows);
}

/** Rows written per table (user and system: an ANALYZE writes pg_statistic), to say where the total goes. */
async function writesByTable(ds: DataSource): Promise<Map<string, number>> {
  await ds.query(`SELECT pg_stat_clear_snapshot()`);
  const rows: { name: string; n: string }[] = await ds.query(
    `SELECT schemaname || '.' || relname AS name, (n_tup_ins + n_tup_upd + n_tup_del)::bigint AS n
       FROM pg_stat_all_tables`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.n)]));
}

async function drained(ds: DataSource, expectedEvents: number): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const [e] = await ds.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'pending')::int AS pending FROM inbox_events`,
    );
    const [a] = await ds.query(
      `SELECT count(*) FILTER (WHERE status IN ('pending', 'running'))::int AS open FROM action_results`,
    );
    if (e.total >= expectedEvents && e.pending === 0 && a.open === 0) return;
    if (Date.now() > deadline) throw new Error('not drained after 10 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function phase(ds: DataSource, api: EngineProcess, contactsFile: string, m: (typeof MODES)[number]) {
  // Dead rows of the previous phase become reusable, as autovacuum makes them in a running system.
  await ds.query('VACUUM');
  // The same flush delay before: the mirror fill's last writes (2,000 upserts) were counted in the
  // first phase when its snapshot was taken at once (contact_mirror: 2.90 rows/event, 1.00 after).
  await new Promise((r) => setTimeout(r, 11_000));
  const before = await tableSizes(ds);
  const writtenBefore = await rowsWritten(ds);
  const byTableBefore = await writesByTable(ds);
  const [{ n: eventsBefore }] = await ds.query(`SELECT count(*)::int AS n FROM inbox_events`);
  await forkBench('throughput-load.js', [
    `${api.url}/webhooks/crm`,
    SECRET,
    m.load,
    String(EVENTS),
    '16',
    contactsFile,
    VIP_TAG_ID,
  ]).message;
  await drained(ds, eventsBefore + EVENTS);
  // pg_stat_database is fed by each backend's pending counts, which an idle backend (the engine's
  // pools once the load ends) flushes up to 10 s late (PostgreSQL 15's PGSTAT_IDLE_INTERVAL).
  await new Promise((r) => setTimeout(r, 11_000));
  const written = (await rowsWritten(ds)) - writtenBefore;
  const writes = [...(await writesByTable(ds))]
    .map(([table, n]) => ({
      mode: m.mode,
      table,
      'rows written/event': (n - (byTableBefore.get(table) ?? 0)) / EVENTS,
    }))
    .filter((w) => w['rows written/event'] >= 0.01)
    .sort((a, b) => b['rows written/event'] - a['rows written/event'])
    .map((w) => ({ ...w, 'rows written/event': w['rows written/event'].toFixed(2) }));
  const after = await tableSizes(ds);
  // Lasting: what stays once VACUUM (autovacuum, in a running system) has made the dead row
  // versions' space free for new rows: the growth less the heap's new free space. Index pages
  // are counted whole (their free space is not in the free space map): an upper bound.
  await ds.query('VACUUM');
  const settled = await tableSizes(ds);
  const perTable: Record<string, string | number>[] = [];
  let rows = 0;
  let bytes = 0;
  let lasting = 0;
  for (const [name, a] of after) {
    const b = before.get(name) ?? { rows: 0, bytes: 0, free: 0, indexes: 0 };
    if (a.rows === b.rows && a.bytes === b.bytes) continue;
    const v = settled.get(name) ?? a;
    const kept = v.bytes - v.free - (b.bytes - b.free);
    rows += a.rows - b.rows;
    bytes += a.bytes - b.bytes;
    lasting += kept;
    perTable.push({
      mode: m.mode,
      table: name,
      'rows added/event': ((a.rows - b.rows) / EVENTS).toFixed(2),
      'bytes/event': Math.round((a.bytes - b.bytes) / EVENTS),
      'lasting bytes/event': Math.round(kept / EVENTS),
      'of which indexes': Math.round((v.indexes - b.indexes) / EVENTS),
    });
  }
  return {
    perTable,
    writes,
    total: {
      mode: m.mode,
      events: EVENTS,
      'rows written/event': (written / EVENTS).toFixed(2),
      'rows added/event': (rows / EVENTS).toFixed(2),
      'bytes/event': Math.round(bytes / EVENTS),
      'lasting bytes/event': Math.round(lasting / EVENTS),
    },
  };
}

async function main() {
  const db = await benchDatabase('storage');
  const crm = forkBench<{ url: string }>('throughput-crm.js', [
    String(CONTACTS),
    String(LIMIT),
    String(WINDOW_MS),
  ]);
  const rulesDir = mkdtempSync(join(tmpdir(), 'crmr-bench-storage-'));
  writeRules(rulesDir);
  const prefix = `crmr-bench-${randomUUID().slice(0, 6)}`;
  const env = benchEngineEnv({
    databaseUrl: db.url,
    redisPrefix: prefix,
    crmUrl: (await crm.message).url,
    rateLimit: LIMIT,
    rateWindowMs: WINDOW_MS,
    webhookSecret: SECRET,
    adminToken: ADMIN_TOKEN,
    rulesDir,
  });
  const ds = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 2 } }).initialize();
  // A contrib module of Postgres (in Debian's postgresql package): the heap's free space per table.
  await ds.query('CREATE EXTENSION IF NOT EXISTS pg_freespacemap');
  const procs: EngineProcess[] = [];
  try {
    procs.push(await startEngineProcess('api', env), await startEngineProcess('worker', env));
    const contactsFile = await fillMirror(procs[0].url, ADMIN_TOKEN, ds);
    const results = [];
    for (const m of MODES) results.push(await phase(ds, procs[0], contactsFile, m));
    console.log(`\n${LISTENING_RULES} rules listening to contact.updated, ${EVENTS} events per mode\n`);
    printTable(results.flatMap((r) => r.perTable));
    console.log(
      '\nrows written per table (pg_stat_all_tables; pg_stat_database counts the same, and what no table view shows)\n',
    );
    printTable(results.flatMap((r) => r.writes));
    console.log('');
    printTable(results.map((r) => r.total));
    const result: Record<string, string | number> = { bench: 'storage' };
    for (const { total } of results) {
      result[`${total.mode}.rows_written_per_event`] = Number(total['rows written/event']);
      result[`${total.mode}.rows_added_per_event`] = Number(total['rows added/event']);
      result[`${total.mode}.bytes_per_event`] = Number(total['bytes/event']);
      result[`${total.mode}.lasting_bytes_per_event`] = Number(total['lasting bytes/event']);
    }
    console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    crm.child.kill('SIGTERM');
    await ds.destroy();
    await dropRedisPrefix(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    // BENCH_KEEP_DB=1 keeps the database to look at its rows (`\d+`, pg_column_size); it prints its URL.
    if (process.env.BENCH_KEEP_DB === '1') console.log(`kept ${db.url}`);
    else await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
