// npm run bench:memory — the engine's memory through a 100k-contact mirror sync, the largest
// allocation burst it makes (~1,000 pages of JSON read, mapped and written). The CRM sandbox (100k
// contacts, its own process), one ROLE=api and one ROLE=worker engine with the 500 rules of
// bench:throughput, the worker runs a manual sweep whose full sync fills the mirror. Side by side in
// one run: the worker with V8's default heap settings, then with the engine's (ENGINE_NODE_FLAGS,
// as the Dockerfile runs it). Prints the worker's peak RSS and, at that moment, the V8 heap
// (used / committed) and external memory from its /metrics.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { BENCH_SEALING_KEY, benchDatabase, dropRedisPrefix, printTable } from './bench-support';
import {
  ENGINE_NODE_FLAGS,
  forkBench,
  rssMb,
  SEGMENT_RULE,
  startEngineProcess,
  writeRules,
  type EngineProcess,
} from './throughput-support';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MB = 1024 * 1024;

interface Sample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

async function metricMb(url: string, name: string): Promise<number> {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).text();
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(name)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum / MB;
}

async function sample(w: EngineProcess): Promise<Sample> {
  return {
    rss: rssMb(w.child.pid!),
    heapUsed: await metricMb(w.url, 'crmr_nodejs_heap_size_used_bytes'),
    heapTotal: await metricMb(w.url, 'crmr_nodejs_heap_size_total_bytes'),
    external: await metricMb(w.url, 'crmr_nodejs_external_memory_bytes'),
  };
}

/** One fresh database and engine pair; the worker's peak while its sweep mirrors every contact. */
async function probe(crmUrl: string, flags: readonly string[]) {
  const db = await benchDatabase('memory');
  const rulesDir = mkdtempSync(join(tmpdir(), 'crmr-bench-memory-'));
  writeRules(rulesDir);
  const prefix = `crmr-bench-${randomUUID().slice(0, 6)}`;
  const env = {
    DATABASE_URL: db.url,
    DATABASE_POOL_MAX: '16',
    REDIS_PREFIX: prefix,
    CRM_BASE_URL: crmUrl,
    CRM_API_KEY: 'sk_demo_full',
    WEBHOOK_SECRET_KEY: BENCH_SEALING_KEY,
    CRM_RATE_LIMIT: '100000',
    CRM_BUDGET_COLD_START: 'false',
    CRM_WEBHOOK_SECRET: 'whsec_bench_0123456789abcdef0123456789',
    ADMIN_TOKEN,
    RULES_DIR: rulesDir,
    RULES_WATCH: 'false',
    LOG_LEVEL: 'warn',
  };
  const ds = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 2 } }).initialize();
  const procs: EngineProcess[] = [];
  try {
    procs.push(await startEngineProcess('api', env));
    const worker = await startEngineProcess('worker', env, flags);
    procs.push(worker);
    const idle = await sample(worker);
    let peak = idle;
    let done = false;
    const sampler = (async () => {
      while (!done) {
        const s = await sample(worker).catch(() => undefined);
        if (s && s.rss > peak.rss) peak = s;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const t = performance.now();
    const res = await fetch(`${procs[0].url}/admin/rules/${SEGMENT_RULE}/sweep`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN },
    });
    if (res.status !== 202) throw new Error(`sweep not queued: ${res.status}`);
    for (;;) {
      const [s] = await ds.query(`SELECT status, detail FROM segment_sweeps WHERE rule_id = $1`, [
        SEGMENT_RULE,
      ]);
      if (s?.status === 'succeeded') break;
      if (s?.status === 'failed' || s?.status === 'skipped')
        throw new Error(`sweep ${s.status}: ${s.detail}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const ms = performance.now() - t;
    await new Promise((r) => setTimeout(r, 2000)); // what stays after the sweep
    done = true;
    await sampler;
    const after = await sample(worker);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM contact_mirror`);
    return { idle, peak, after, mirrored: n as number, ms };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await ds.destroy();
    await dropRedisPrefix(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    await db.drop();
  }
}

async function main() {
  const crm = forkBench<{ url: string }>('throughput-crm.js', [String(CONTACTS), '1000000', '60000']);
  const crmUrl = (await crm.message).url;
  const rows: Record<string, string | number>[] = [];
  try {
    for (const [name, flags] of [
      ['V8 defaults', []],
      [ENGINE_NODE_FLAGS.join(' '), ENGINE_NODE_FLAGS],
    ] as const) {
      const r = await probe(crmUrl, flags);
      const f = (x: number) => x.toFixed(0);
      rows.push({
        'worker node flags': name,
        mirrored: r.mirrored,
        'sync+sweep s': (r.ms / 1000).toFixed(1),
        'idle RSS MB': f(r.idle.rss),
        'peak RSS MB': f(r.peak.rss),
        'heap used / committed at peak': `${f(r.peak.heapUsed)} / ${f(r.peak.heapTotal)}`,
        'external at peak': f(r.peak.external),
        'RSS after MB': f(r.after.rss),
      });
    }
    console.log(`\nworker memory through a full sync of ${CONTACTS} contacts (500 rules loaded)\n`);
    printTable(rows);
  } finally {
    crm.child.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
