// npm run bench:e2e — event → first CRM call latency with the budget free: a signed delivery
// arrives, is committed, matched, and its action's gateway call starts. Measured from Postgres
// timestamps (inbox_events.received_at → action_results.started_at), one clock.
// `--steps` (or BENCH_STEPS=1) also prints where the time goes, step by step (bench/e2e-steps.ts).
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/runtime/config/load-config';
import { startEngine } from '../src/engine';
import { signatureHeader } from '../src/language/net/verify-signature';
import { EngineMetrics } from '../src/operator/ops/engine-metrics';
import { BENCH_SEALING_KEY, benchDatabase, printTable } from './bench-support';
import { percentile } from './stats';
import { StepProbe } from './e2e-steps';
import { SANDBOX_MAIN_PATH } from '@crm-rules/crm-sandbox';

const SECRET = 'whsec_bench_0123456789abcdef0123456789';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const RATE_PER_S = Number(process.env.BENCH_RATE ?? 50);
/**
 * Sent first at the same rate and left out of every figure: a fresh engine's first second is its
 * own story (code not yet optimised by V8, pool connections opened and their plans made).
 */
const WARMUP = Number(process.env.BENCH_WARMUP_EVENTS ?? 100);
const WARMUP_ID = 'evt_warmup_';
const STEPS = process.argv.includes('--steps') || process.env.BENCH_STEPS === '1';

function startSandboxProcess(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SANDBOX_MAIN_PATH], {
      env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_RATE_LIMIT: '100000', SANDBOX_LOG: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (m) resolve({ url: m[1], child });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

async function main() {
  const db = await benchDatabase('e2e');
  const rulesDir = mkdtempSync(join(tmpdir(), 'crmr-bench-rules-'));
  writeFileSync(join(rulesDir, 'tag.yaml'), 'rule: tag-vip\non: contact.updated\ndo:\n  - add-tag: vip\n');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: db.url,
    CRM_WEBHOOK_SECRET: SECRET,
    WEBHOOK_SECRET_KEY: BENCH_SEALING_KEY, // a real CRM's address (the sandbox process) requires one
    PORT: '0',
    SANDBOX_PORT: '0',
    CRM_API_KEY: 'sk_demo_full',
    CRM_RATE_LIMIT: '100000', // "budget free": the CRM limit is not what is measured here
    CRM_BUDGET_COLD_START: 'false', // a fresh bench prefix has no budget state: no closed first window
    RULES_DIR: rulesDir,
    RULES_WATCH: 'false',
    REDIS_PREFIX: `crmr-bench-${randomUUID().slice(0, 6)}`,
    LOG_LEVEL: 'error',
  });
  // The CRM is another program: the sandbox runs in its own process, as the real CRM would.
  const sandbox = await startSandboxProcess();
  process.once('exit', () => sandbox.child.kill()); // never outlive the benchmark, even when it fails
  config.crm.baseUrl = sandbox.url;
  const engine = await startEngine(config, { quiet: true, subscribe: false });
  const probe = STEPS ? new StepProbe() : undefined;
  probe?.attach(engine.app);
  const auth = { authorization: 'Bearer sk_demo_full', 'content-type': 'application/json' };
  try {
    const contacts: { id: string }[] = [];
    for (let i = 0; i < WARMUP + EVENTS; i++) {
      const res = await fetch(`${sandbox.url}/v1/contacts`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: `Bench ${i}`, phone: `55119${String(i).padStart(8, '0')}` }),
      });
      contacts.push((await res.json()) as { id: string });
    }
    const loop = monitorEventLoopDelay({ resolution: 5 });
    const started = Date.now();
    for (let i = 0; i < WARMUP + EVENTS; i++) {
      const warm = i < WARMUP;
      if (i === WARMUP) loop.enable();
      const body = JSON.stringify({
        id: `${warm ? WARMUP_ID : 'evt_'}${randomUUID()}`,
        type: 'contact.updated',
        createdAt: new Date().toISOString(),
        data: contacts[i],
      });
      const headers = {
        'content-type': 'application/json',
        'x-service-signature': signatureHeader(SECRET, body),
      };
      const measured = warm ? undefined : probe;
      measured?.mark(contacts[i].id, 'sent');
      const res = await fetch(`${engine.url}/webhooks/crm`, { method: 'POST', headers, body });
      measured?.mark(contacts[i].id, 'answered');
      if (measured) measured.noteEvent(((await res.json()) as { id: string }).id, contacts[i].id);
      else await res.arrayBuffer();
      const due = started + ((i + 1) * 1000) / RATE_PER_S;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    }
    const ds = engine.app.get(DataSource);
    let rows: { ms: number; match_ms: number; act_ms: number }[] = [];
    for (let waited = 0; waited < 60000; waited += 250) {
      rows = await ds.query(
        `SELECT EXTRACT(EPOCH FROM (a.started_at - e.received_at)) * 1000 AS ms,
                EXTRACT(EPOCH FROM (r.created_at - e.received_at)) * 1000 AS match_ms,
                EXTRACT(EPOCH FROM (a.started_at - r.created_at)) * 1000 AS act_ms
           FROM action_results a JOIN runs r ON r.id = a.run_id JOIN inbox_events e ON e.id = r.inbox_event_id
          WHERE a.started_at IS NOT NULL AND e.event_key NOT LIKE $1`,
        [`id:${WARMUP_ID}%`],
      );
      if (rows.length >= EVENTS) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    loop.disable();
    const ms = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
    const matchMs = rows.map((r) => Number(r.match_ms)).sort((a, b) => a - b);
    // run created (its transaction's start) → the call: the part a second queue hop would add to.
    const actMs = rows.map((r) => Number(r.act_ms)).sort((a, b) => a - b);
    console.log(
      `\nevent → first CRM call, ${EVENTS} events at ${RATE_PER_S}/s after ${WARMUP} warm-up events, budget free\n`,
    );
    printTable([
      {
        measured: ms.length,
        'p50 ms': percentile(ms, 50).toFixed(1),
        'p95 ms': percentile(ms, 95).toFixed(1),
        'p99 ms': percentile(ms, 99).toFixed(1),
        'max ms': ms[ms.length - 1]?.toFixed(1),
      },
      {
        measured: 'of which receipt → run created',
        'p50 ms': percentile(matchMs, 50).toFixed(1),
        'p95 ms': percentile(matchMs, 95).toFixed(1),
        'p99 ms': percentile(matchMs, 99).toFixed(1),
        'max ms': matchMs[matchMs.length - 1]?.toFixed(1),
      },
      {
        measured: 'of which run created → first CRM call',
        'p50 ms': percentile(actMs, 50).toFixed(1),
        'p95 ms': percentile(actMs, 95).toFixed(1),
        'p99 ms': percentile(actMs, 99).toFixed(1),
        'max ms': actMs[actMs.length - 1]?.toFixed(1),
      },
    ]);
    const steps = probe?.report(await postgresStamps(ds));
    const dispatch = (await engine.app.get(EngineMetrics).runDispatch.get()).values;
    console.log(
      `\nruns executed in the events job / queued: ${dispatch.map((v) => `${v.labels.how} ${v.value}`).join(', ') || 'none'}`,
    );
    console.log(
      `\nevent-loop delay of the engine process (engine and load generator; the sandbox runs apart): p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`,
    );
    // One machine-readable line for scripts/bench-compare.js; the human output above stays as it is.
    const figures = (prefix: string, sorted: number[]) => ({
      [`${prefix}p50_ms`]: round3(percentile(sorted, 50)),
      [`${prefix}p95_ms`]: round3(percentile(sorted, 95)),
      [`${prefix}p99_ms`]: round3(percentile(sorted, 99)),
      [`${prefix}max_ms`]: round3(sorted[sorted.length - 1]),
    });
    const result = {
      bench: 'e2e',
      measured: ms.length,
      ...figures('', ms),
      ...figures('to_run_', matchMs),
      ...figures('run_to_call_', actMs),
      ...Object.fromEntries(dispatch.map((v) => [`dispatch_${v.labels.how}`, v.value])),
      loop_p50_ms: round3(loop.percentile(50) / 1e6),
      loop_p99_ms: round3(loop.percentile(99) / 1e6),
      ...steps,
    };
    console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  } finally {
    await engine.close();
    sandbox.child.kill();
    await db.drop();
  }
}

/** The steps Postgres stamped, per contact: inbox insert, run created, action `running` (epoch ms). */
async function postgresStamps(
  ds: DataSource,
): Promise<Map<string, { received: number; created: number; running: number }>> {
  const rows: { contact_id: string; received: string; created: string; running: string }[] = await ds.query(
    `SELECT e.contact_id, EXTRACT(EPOCH FROM e.received_at) * 1000 AS received,
            EXTRACT(EPOCH FROM r.created_at) * 1000 AS created,
            EXTRACT(EPOCH FROM a.started_at) * 1000 AS running
       FROM action_results a JOIN runs r ON r.id = a.run_id JOIN inbox_events e ON e.id = r.inbox_event_id
      WHERE a.started_at IS NOT NULL`,
  );
  return new Map(
    rows.map((r) => [
      r.contact_id,
      { received: Number(r.received), created: Number(r.created), running: Number(r.running) },
    ]),
  );
}

function round3(x: number | undefined): number | null {
  return x === undefined || Number.isNaN(x) ? null : Math.round(x * 1000) / 1000;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
