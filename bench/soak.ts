// npm run bench:soak -- [--minutes 15] [--rate 300] [--interval 60] — signed deliveries at a fixed
// rate for minutes through the real API, one worker and the CRM sandbox (each a process of its own,
// 500 rules, the mirror filled by a sweep), as production would run for hours. Every interval it
// prints the deliveries answered, their 2xx share, the backlog (pending inbox rows + events queue
// jobs not yet taken), the RSS of the API and the worker, and the database's size (pg_database_size
// and the largest tables by pg_total_relation_size, indexes and TOAST included). At the end: the
// growth per event and whether RSS stayed flat (mean of the last third against the first third).
// Compressed time: `--minutes 5 --rate 900` sends what 15 minutes at 300/s would, at three times
// the pressure; docs/BENCHMARKS.md says which a figure used.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { benchDatabase, dropRedisPrefix, printTable } from './bench-support';
import { fillMirror } from './mirror-fill';
import {
  benchEngineEnv,
  forkBench,
  rssMb,
  startEngineProcess,
  VIP_TAG_ID,
  writeRules,
} from './throughput-support';
import { soakVerdict, type SoakSample } from './soak-stats';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MINUTES = arg('minutes', 15);
const RATE = arg('rate', 300);
const INTERVAL_S = arg('interval', 60);
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const LIMIT = 600; // the CRM's 300/min scaled 20×, as bench:throughput
const WINDOW_MS = 6000;
const SECRET = 'whsec_bench_0123456789abcdef0123456789';
const ADMIN_TOKEN = randomUUID();
const MB = 1024 * 1024;

async function main() {
  const db = await benchDatabase('soak');
  const crm = forkBench<{ url: string }>('throughput-crm.js', [
    String(CONTACTS),
    String(LIMIT),
    String(WINDOW_MS),
  ]);
  const rulesDir = mkdtempSync(join(tmpdir(), 'crmr-bench-soak-'));
  writeRules(rulesDir);
  const prefix = `crmr-bench-${randomUUID().slice(0, 6)}`;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const env = benchEngineEnv({
    databaseUrl: db.url,
    redisPrefix: prefix,
    crmUrl: (await crm.message).url,
    rateLimit: LIMIT,
    rateWindowMs: WINDOW_MS,
    webhookSecret: SECRET,
    adminToken: ADMIN_TOKEN,
    rulesDir,
    poolMax: 16,
  });
  const ds = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 2 } }).initialize();
  const u = new URL(redisUrl);
  const events = new Queue('events', {
    connection: { host: u.hostname, port: Number(u.port || 6379) },
    prefix,
  });
  const api = await startEngineProcess('api', env);
  const worker = await startEngineProcess('worker', env);
  try {
    const contactsFile = await fillMirror(api.url, ADMIN_TOKEN, ds);
    await ds.query(`CHECKPOINT`).catch(() => undefined); // needs superuser; sizes are read either way
    const dbBytes0 = await databaseBytes(ds);
    const tables0 = await tableBytes(ds);
    console.log(
      `soak: ${MINUTES} min at ${RATE}/s, report every ${INTERVAL_S} s, ${CONTACTS} contacts, ` +
        `database ${(dbBytes0 / MB).toFixed(1)} MB before the load`,
    );
    const samples = await runLoad(api.url, contactsFile, async (answered, ok, elapsedS) => {
      const [{ pending }] = await ds.query(
        `SELECT count(*)::int AS pending FROM inbox_events WHERE status = 'pending'`,
      );
      const c = await events.getJobCounts('waiting', 'prioritized', 'delayed');
      const bytes = await databaseBytes(ds);
      return {
        minute: Math.round((elapsedS / 60) * 10) / 10,
        answered,
        ok,
        backlog: pending + c.waiting + c.prioritized + c.delayed,
        apiRss: rssMb(api.child.pid!),
        workerRss: rssMb(worker.child.pid!),
        dbMb: bytes / MB,
        growthMb: (bytes - dbBytes0) / MB,
      };
    });
    const drainedAt = performance.now();
    let backlog = Infinity;
    while (backlog > 0 && performance.now() - drainedAt < 120_000) {
      const [{ pending }] = await ds.query(
        `SELECT count(*)::int AS pending FROM inbox_events WHERE status = 'pending'`,
      );
      backlog = pending + (await events.getWaitingCount());
      if (backlog > 0) await new Promise((r) => setTimeout(r, 500));
    }
    const [{ total }] = await ds.query(`SELECT count(*)::int AS total FROM inbox_events`);
    const grown = (await databaseBytes(ds)) - dbBytes0;
    const tables = await tableBytes(ds);
    console.log('\nlargest tables, growth over the soak (MB, indexes and TOAST included):');
    printTable(
      [...tables.entries()]
        .map(([name, bytes]) => ({
          table: name,
          mb: (bytes / MB).toFixed(1),
          grown: ((bytes - (tables0.get(name) ?? 0)) / MB).toFixed(1),
          'bytes/event': Math.round((bytes - (tables0.get(name) ?? 0)) / Math.max(total, 1)),
        }))
        .sort((a, b) => Number(b.grown) - Number(a.grown))
        .slice(0, 8),
    );
    const verdict = soakVerdict(samples, grown, total, backlog);
    console.log(`\n${verdict.lines.join('\n')}`);
    console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'soak', ...verdict.result })}`);
  } finally {
    await Promise.all([api.stop(), worker.stop()]);
    crm.child.kill('SIGTERM');
    await events.close();
    await ds.destroy();
    await dropRedisPrefix(redisUrl, prefix);
    await db.drop();
  }
}

type Probe = (answered: number, ok: number, elapsedS: number) => Promise<SoakSample>;

/** Runs the load generator; samples once per interval while it runs and prints each sample. */
function runLoad(apiUrl: string, contactsFile: string, probe: Probe): Promise<SoakSample[]> {
  const args = [`${apiUrl}/webhooks/crm`, SECRET, String(RATE), String(MINUTES * 60), String(CONNECTIONS)];
  const child = fork(
    join(__dirname, 'soak-load.js'),
    [...args, contactsFile, VIP_TAG_ID, String(INTERVAL_S)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const start = performance.now();
  const samples: SoakSample[] = [];
  const rows: Record<string, string | number>[] = [];
  let last = { answered: 0, ok: 0 };
  let chain = Promise.resolve();
  const record = (counts: { answered: number; ok: number }) => {
    const answered = counts.answered - last.answered;
    const ok = counts.ok - last.ok;
    last = counts;
    chain = chain.then(async () => {
      const s = await probe(answered, ok, (performance.now() - start) / 1000);
      samples.push(s);
      rows.push(row(s));
      console.log(rows.length === 1 ? header(rows[0]) : '', line(rows[rows.length - 1]));
    });
  };
  return new Promise((resolve, reject) => {
    child.on('message', (m: { tick?: typeof last; counts?: typeof last; error?: string }) => {
      if (m.error) return reject(new Error(m.error));
      if (m.tick) return record(m.tick);
      if (m.counts) {
        if (m.counts.answered > last.answered) record(m.counts);
        void chain.then(() => resolve(samples), reject);
      }
    });
    child.once('exit', (code) => code !== 0 && reject(new Error(`soak-load exited with ${code}`)));
  });
}

function row(s: SoakSample): Record<string, string | number> {
  return {
    minute: s.minute.toFixed(1),
    deliveries: s.answered,
    '2xx %': s.answered ? ((100 * s.ok) / s.answered).toFixed(2) : '-',
    backlog: s.backlog,
    'api RSS MB': Math.round(s.apiRss),
    'worker RSS MB': Math.round(s.workerRss),
    'db MB': s.dbMb.toFixed(1),
    'grown MB': s.growthMb.toFixed(1),
  };
}
const header = (r: Record<string, string | number>) =>
  Object.keys(r)
    .map((k) => k.padStart(13))
    .join(' ') + '\n';
const line = (r: Record<string, string | number>) =>
  Object.values(r)
    .map((v) => String(v).padStart(13))
    .join(' ');

async function databaseBytes(ds: DataSource): Promise<number> {
  const [{ bytes }] = await ds.query(`SELECT pg_database_size(current_database())::bigint AS bytes`);
  return Number(bytes);
}

async function tableBytes(ds: DataSource): Promise<Map<string, number>> {
  const rows: { name: string; bytes: string }[] = await ds.query(
    `SELECT relname AS name, pg_total_relation_size(relid)::bigint AS bytes FROM pg_stat_user_tables`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.bytes)]));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
