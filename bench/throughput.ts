// npm run bench:throughput — events processed end to end (verified, stored, matched, ledger
// written) per second, with one ROLE=api process and 1, 2, then 4 ROLE=worker processes on one
// Postgres and one Redis, the CRM sandbox and the load generator each in a process of their own.
// Two modes: events no rule matches, and events whose action is a guarded no-op. 500 rules loaded,
// the mirror filled with the CRM's contacts (100k) by a real sweep before the load. Prints the
// rate per mode and per worker process, CPU per event by process, Postgres writes per event,
// the engine processes' peak RSS, and the CRM calls and 429s of the whole run.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { DataSource } from 'typeorm';
import { benchDatabase, dropRedisPrefix, printTable } from './bench-support';
import { fillMirror } from './mirror-fill';
import {
  benchEngineEnv,
  counter,
  counterBy,
  cpuMs,
  forkBench,
  RUNS_PER_EVENT,
  rssMb,
  startEngineProcess,
  VIP_TAG_ID,
  writeRules,
  type EngineProcess,
} from './throughput-support';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
/**
 * Events of each mode sent, unmeasured, before the measured phases of each worker count: a fresh
 * process runs its first thousands of events through cold code (V8 compiles as it goes), which the
 * first measured mode would otherwise pay alone. 0 turns it off.
 */
const WARMUP_EVENTS = Number(process.env.BENCH_WARMUP_EVENTS ?? 2_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WORKERS = (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
// The CRM's 300/min scaled 20× so the mirror fills in seconds; the sandbox enforces the same limit.
const LIMIT = 600;
const WINDOW_MS = 6000;
const SECRET = 'whsec_bench_0123456789abcdef0123456789';
const ADMIN_TOKEN = randomUUID();
/** `BENCH_MODES=no-action` or `guarded` runs one mode only (default both). */
const MODES = [
  { mode: 'no-action', goal: 2000 },
  { mode: 'guarded', goal: 1000 },
].filter(({ mode }) => (process.env.BENCH_MODES ?? 'no-action,guarded').split(',').includes(mode)) as {
  mode: 'no-action' | 'guarded';
  goal: number;
}[];

interface Bench {
  ds: DataSource;
  api: EngineProcess;
  workers: EngineProcess[];
  contactsFile: string;
  peakRss: Map<EngineProcess, number>;
}

async function main() {
  const db = await benchDatabase('throughput');
  const crm = forkBench<{ url: string }>('throughput-crm.js', [
    String(CONTACTS),
    String(LIMIT),
    String(WINDOW_MS),
  ]);
  const rulesDir = mkdtempSync(join(tmpdir(), 'crmr-bench-throughput-'));
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
    poolMax: 16, // 5 processes × 16 stay under a shared server's 100 connections
  });
  const ds = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 2 } }).initialize();
  const b: Bench = {
    ds,
    api: undefined as unknown as EngineProcess,
    workers: [],
    contactsFile: '',
    peakRss: new Map(),
  };
  try {
    b.api = await startEngineProcess('api', env);
    b.workers.push(await startEngineProcess('worker', env));
    b.contactsFile = await fillMirror(b.api.url, ADMIN_TOKEN, ds);
    const rows: Record<string, string | number>[] = [];
    for (const count of WORKERS) {
      while (b.workers.length < count) b.workers.push(await startEngineProcess('worker', env));
      if (WARMUP_EVENTS > 0) for (const { mode } of MODES) await phase(b, mode, 0, WARMUP_EVENTS);
      for (const { mode, goal } of MODES) rows.push(await phase(b, mode, goal));
    }
    console.log('');
    printTable(rows);
    await summary(b);
    console.log(`BENCH_RESULT ${JSON.stringify(benchResult(rows, b))}`);
  } finally {
    await Promise.all([b.api, ...b.workers].filter(Boolean).map((p) => p.stop()));
    crm.child.kill('SIGTERM');
    await ds.destroy();
    await dropRedisPrefix(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    await db.drop();
  }
}

async function pgCounters(ds: DataSource) {
  await ds.query(`SELECT pg_stat_clear_snapshot()`);
  const [s] = await ds.query(
    `SELECT xact_commit::bigint AS commits, (tup_inserted + tup_updated + tup_deleted)::bigint AS rows
       FROM pg_stat_database WHERE datname = current_database()`,
  );
  const backends: { pid: number }[] = await ds.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return {
    commits: Number(s.commits),
    rows: Number(s.rows),
    cpu: new Map(backends.map((x) => [x.pid, cpuMs(x.pid)])),
  };
}

async function phase(
  b: Bench,
  mode: string,
  goal: number,
  events = EVENTS,
): Promise<Record<string, string | number>> {
  await b.ds.query(`TRUNCATE inbox_events, runs, action_results, enrollments`);
  const procs = [b.api, ...b.workers];
  const cpuBefore = procs.map((p) => cpuMs(p.child.pid!));
  const runsBefore = await Promise.all(b.workers.map((w) => counter(w.url, 'crmr_runs_total')));
  const pgBefore = await pgCounters(b.ds);
  const sampler = setInterval(() => {
    for (const p of procs) b.peakRss.set(p, Math.max(b.peakRss.get(p) ?? 0, rssMb(p.child.pid!)));
  }, 500);
  const load = forkBench<autocannon.Result>('throughput-load.js', [
    `${b.api.url}/webhooks/crm`,
    SECRET,
    mode,
    String(events),
    String(CONNECTIONS),
    b.contactsFile,
    VIP_TAG_ID,
  ]).message;
  let loaded: autocannon.Result | undefined;
  void load.then((r) => (loaded = r));
  let done: { total: number; seconds: number; skipped: number } | undefined;
  const deadline = Date.now() + 10 * 60_000;
  while (!done) {
    if (Date.now() > deadline) throw new Error(`${mode}: not drained after 10 minutes`);
    await new Promise((r) => setTimeout(r, 200));
    const [e] = await b.ds.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'pending')::int AS pending,
              EXTRACT(EPOCH FROM (max(processed_at) - min(received_at))) AS events_s,
              EXTRACT(EPOCH FROM min(received_at)) AS first_at FROM inbox_events`,
    );
    const [a] = await b.ds.query(
      `SELECT count(*) FILTER (WHERE status IN ('pending', 'running'))::int AS open,
              count(*) FILTER (WHERE status = 'skipped' AND reason = 'no_change')::int AS skipped,
              EXTRACT(EPOCH FROM max(finished_at)) AS last_at FROM action_results`,
    );
    const expected = mode === 'guarded' ? e.total : 0;
    if (!loaded || e.total < events || e.pending > 0 || a.open > 0 || a.skipped < expected) continue;
    const actionsS = a.last_at ? Number(a.last_at) - Number(e.first_at) : 0;
    done = { total: e.total, seconds: Math.max(Number(e.events_s), actionsS), skipped: a.skipped };
  }
  clearInterval(sampler);
  const pgAfter = await pgCounters(b.ds);
  let pgCpu = 0;
  for (const [pid, ms] of pgAfter.cpu) pgCpu += ms - (pgBefore.cpu.get(pid) ?? 0);
  const cpu = procs.map((p, i) => cpuMs(p.child.pid!) - cpuBefore[i]);
  const runs = await Promise.all(b.workers.map((w) => counter(w.url, 'crmr_runs_total')));
  const perWorker = runs.map((r, i) => Math.round((r - runsBefore[i]) / RUNS_PER_EVENT / done!.seconds));
  const rate = done.total / done.seconds;
  const perEvent = (x: number) => (x / done!.total).toFixed(2);
  return {
    workers: b.workers.length,
    mode,
    events: done.total,
    'intake req/s': Math.round(loaded!.requests.average),
    'intake p99 ms': loaded!.latency.p99,
    'end to end /s': Math.round(rate),
    goal: `>= ${goal} ${rate >= goal ? 'yes' : 'NO'}`,
    'per worker /s': perWorker.join(' / '),
    'CPU ms/ev api': perEvent(cpu[0]),
    'CPU workers': perEvent(cpu.slice(1).reduce((x, y) => x + y, 0)),
    'CPU postgres': perEvent(pgCpu),
    'pg commits/event': perEvent(pgAfter.commits - pgBefore.commits),
    'pg rows/event': perEvent(pgAfter.rows - pgBefore.rows),
  };
}

async function summary(b: Bench) {
  const procs = [b.api, ...b.workers];
  const [calls, r429] = await Promise.all([
    Promise.all(procs.map((p) => counter(p.url, 'crmr_crm_calls_total'))),
    Promise.all(procs.map((p) => counter(p.url, 'crmr_crm_429_total'))),
  ]);
  const peak = procs.map(
    (p, i) => `${p.role}${p.role === 'worker' ? i : ''} ${Math.round(b.peakRss.get(p) ?? 0)}`,
  );
  const worst = Math.max(...b.peakRss.values());
  console.log(
    `\npeak RSS per engine process, MB (500 rules, ${CONTACTS} mirrored contacts, under the load): ${peak.join(', ')}`,
  );
  console.log(`largest: ${Math.round(worst)} MB (goal <= 256 MB) ${worst <= 256 ? 'yes' : 'NO'}`);
  const total429 = r429.reduce((x, y) => x + y, 0);
  const byOperation = await counterBy(
    procs.map((p) => p.url),
    'crmr_crm_calls_total',
    'operation',
  );
  console.log(`CRM calls by operation: ${JSON.stringify(byOperation)}`);
  console.log(
    `CRM calls of the whole run (all processes): ${calls.reduce((x, y) => x + y, 0)}, 429s: ${total429} ` +
      `(budget ${LIMIT} per ${WINDOW_MS} ms shared through Redis, the sandbox enforcing the same limit) ` +
      `${total429 === 0 ? 'never exceeded' : 'EXCEEDED'}`,
  );
}

/** The figures of the rows as one JSON line for scripts/bench-compare.js, under stable names. */
function benchResult(rows: Record<string, string | number>[], b: Bench): Record<string, string | number> {
  const names: Record<string, string> = {
    'intake req/s': 'intake_req_per_s',
    'intake p99 ms': 'intake_p99_ms',
    'end to end /s': 'end_to_end_per_s',
    'CPU ms/ev api': 'cpu_api_ms_per_event',
    'CPU workers': 'cpu_workers_ms_per_event',
    'CPU postgres': 'cpu_postgres_ms_per_event',
    'pg commits/event': 'pg_commits_per_event',
    'pg rows/event': 'pg_rows_per_event',
  };
  const result: Record<string, string | number> = { bench: 'throughput' };
  for (const row of rows)
    for (const [label, name] of Object.entries(names))
      result[`w${row.workers}.${row.mode}.${name}`] = Number(row[label]);
  result.peak_rss_mb = Math.round(Math.max(...b.peakRss.values()));
  return result;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
