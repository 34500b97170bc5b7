// npm run chaos (CHAOS_SHORT=1 for a short run): the built engine, in separate processes (one
// api, one scheduler, two workers), against the CRM sandbox in its own process, on a private
// Redis and a private Postgres, through kill -9, Redis restart and FLUSHALL, a Postgres restart,
// CRM 5xx / timeout / 429 storms, duplicate deliveries and poison events. Per scenario it prints
// what was accepted, expected, written, lost, repeated, refused for exceeding the limit, and the
// time to the first CRM write after the fault ended. Not part of npm test.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { BENCH_SEALING_KEY, printTable } from './bench-support';
import {
  EngineProcess,
  freePort,
  PrivatePostgres,
  PrivateRedis,
  SandboxProcess,
  until,
  type CrmRequest,
} from './chaos-services';
import { GREET_RULE, GREETED_CONTACT, greetingsHeld, greetOutcomes } from './chaos-messages';
import { createContacts, deliverAll } from './chaos-deliveries';
import { scenarios, type Ctx, type Scenario } from './chaos-scenarios';

const SHORT = process.env.CHAOS_SHORT === '1';
const EVENTS = Number(process.env.CHAOS_EVENTS ?? (SHORT ? 60 : 240));
const LIMIT = 60;
const WINDOW_MS = 6_000;
const SECRET = 'whsec_chaos_0123456789abcdef0123456789';
const ORG = '0d000000-0000-4000-8000-000000000001';
const VIP = '7a000000-0000-4000-8000-000000000002';
const SETTLE_MS = SHORT ? 120_000 : 240_000;
/** Runs only the scenarios whose name contains this text. */
const ONLY = process.env.CHAOS_ONLY;

const SCENARIOS = scenarios(EVENTS, SETTLE_MS);

async function main(): Promise<void> {
  const logDir = mkdtempSync(join(tmpdir(), 'crmr-chaos-logs-'));
  const redis = new PrivateRedis(await freePort());
  const pg = new PrivatePostgres(await freePort());
  await redis.start();
  pg.init();
  pg.start();
  const sandbox = new SandboxProcess({
    SANDBOX_RATE_LIMIT: String(LIMIT),
    SANDBOX_RATE_WINDOW_MS: String(WINDOW_MS),
  });
  await sandbox.start();
  const rulesDir = mkdtempSync(join(tmpdir(), 'crmr-chaos-rules-'));
  writeFileSync(join(rulesDir, 'vip.yaml'), 'rule: tag-vip\non: contact.updated\ndo:\n  - add-tag: vip\n');
  writeFileSync(join(rulesDir, 'greet.yaml'), GREET_RULE);
  const apiPort = await freePort();
  const env: Record<string, string> = {
    DATABASE_URL: pg.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: 'chaos',
    CRM_BASE_URL: sandbox.url,
    CRM_API_KEY: 'sk_demo_full',
    CRM_ORGANIZATION_ID: ORG,
    WEBHOOK_SECRET_KEY: BENCH_SEALING_KEY,
    CRM_WEBHOOK_SECRET: SECRET,
    CRM_RATE_LIMIT: String(LIMIT),
    CRM_RATE_WINDOW_MS: String(WINDOW_MS),
    CRM_TIMEOUT_MS: '2000',
    CRM_MAX_PAUSE_MS: '5000',
    RULES_DIR: rulesDir,
    RULES_WATCH: 'false',
    LOG_LEVEL: 'warn',
    PORT: '0',
    PUBLIC_URL: '',
  };
  await migrateDatabase(env);
  const api = new EngineProcess('api', { ...env, ROLE: 'api', PORT: String(apiPort) }, logDir);
  const scheduler = new EngineProcess('scheduler', { ...env, ROLE: 'scheduler' }, logDir);
  const workers = [1, 2].map((i) => new EngineProcess(`worker-${i}`, { ...env, ROLE: 'worker' }, logDir));
  for (const p of [api, scheduler, ...workers]) p.start();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  if (!(await until(async () => (await fetch(`${apiUrl}/health`)).ok, 60_000, 500)))
    throw new Error(`engine did not come up; logs in ${logDir}`);
  const ctx: Ctx = { redis, pg, sandbox, api, workers, apiUrl };
  console.log(
    `chaos: ${EVENTS} events per scenario, CRM limit ${LIMIT} per ${WINDOW_MS} ms; logs in ${logDir}`,
  );
  console.log('(a shared 2-core machine: times are noisy)\n');
  const rows: Record<string, string | number>[] = [];
  try {
    for (const scenario of SCENARIOS.filter((x) => !ONLY || x.name.includes(ONLY))) {
      const row = await runScenario(ctx, scenario);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  } finally {
    for (const p of [api, scheduler, ...workers]) await p.stop();
    await sandbox.stop();
    await redis.stop();
    pg.stop();
  }
  console.log('');
  printTable(rows);
  for (const row of rows.filter((r) => Number(r.unanswered) > 0))
    console.log(
      `\n${row.scenario}: ${row.unanswered} of the ${row['CRM writes']} writes were applied by the CRM after the engine's ` +
        `timeout (it never got their answer). A timeout proves nothing, so the gateway sent those add-tag calls again: ` +
        `${row.repeated} repeated write(s); adding a tag a contact already has changes nothing, so every contact's tags changed once.`,
    );
}

async function migrateDatabase(env: Record<string, string>): Promise<void> {
  const { ensureDatabase, runMigrations } = await import('../src/persistence/schema/migrate');
  await ensureDatabase(env.DATABASE_URL);
  await runMigrations(env.DATABASE_URL);
}

async function runScenario(ctx: Ctx, s: Scenario): Promise<Record<string, string | number>> {
  const contacts = await createContacts(ctx.sandbox.url, EVENTS, s.greet ? GREETED_CONTACT : {});
  const poisonIds = Array.from({ length: s.poison ?? 0 }, () => randomUUID());
  for (const f of s.faults ?? []) await control(ctx.sandbox.url, 'POST', 'faults', f);
  await s.prepare?.(ctx);
  const started = Date.now();
  // A storm ends when the sandbox has used up the faults armed for it.
  const faultEnded = s.fault ? s.fault(ctx) : faultsUsedUp(ctx.sandbox.url);
  const deliveries = [
    ...contacts.map((c) => ({ contact: c, copies: Math.random() < (s.duplicateShare ?? 0) ? 2 : 1 })),
    // Half a contact the CRM does not know (its write gets 404), half a payload the mirror cannot use.
    ...poisonIds.map((id, i) => ({
      contact: i % 2 ? { ...contacts[0], id } : { id, name: 'Nobody', phone: '0' },
      copies: 1,
    })),
  ];
  const accepted = await deliverAll(ctx.apiUrl, SECRET, deliveries);
  const faultEnd = await faultEnded;
  const ids = new Set(contacts.map((c) => c.id as string));
  const done = new Set<string>();
  const settled = await until(
    async () => {
      for (const id of ids) if (!done.has(id) && (await hasVip(ctx.sandbox.url, id))) done.add(id);
      return done.size === ids.size;
    },
    SETTLE_MS,
    1_000,
  );
  const greetings = s.greet ? await greetOutcomes(ctx.pg.url, [...ids], SETTLE_MS) : undefined;
  const finished = Date.now();
  await control(ctx.sandbox.url, 'DELETE', 'faults');
  const poisonEnded = await poisonTerminal(ctx.pg.url, poisonIds);
  const mine = ctx.sandbox.requests.filter((r) => r.at >= started && r.at <= finished + 2_000);
  const writes = mine.filter((r) => isTagWrite(r) && r.status < 300 && ids.has(contactOf(r)));
  const perContact = new Map<string, number>();
  for (const w of writes) perContact.set(contactOf(w), (perContact.get(contactOf(w)) ?? 0) + 1);
  const repeated = [...perContact.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  const injected429 = (s.faults ?? []).filter((f) => f.kind === 'rate429').reduce((n, f) => n + f.count, 0);
  const engineCalls = mine.filter((r) => !(r.method === 'POST' && r.path === '/v1/contacts'));
  const refused429 = engineCalls.filter((r) => r.status === 429).length;
  const firstWriteAfter = writes.find((w) => w.at >= faultEnd);
  // Read after the request log was taken: these reads (another key) are not the engine's calls.
  const held = greetings ? await greetingsHeld(ctx.sandbox.url, [...ids]) : undefined;
  return {
    scenario: s.name,
    'events accepted': accepted,
    'actions expected': ids.size,
    'CRM writes': writes.length,
    // Applied by the CRM after the engine's timeout: the engine never saw the answer (see RELIABILITY).
    unanswered: writes.filter((w) => !w.answered).length,
    lost: ids.size - done.size,
    repeated,
    'above limit (429)': Math.max(0, refused429 - injected429),
    'poison ended': `${poisonEnded}/${poisonIds.length}`,
    // Greeting scenarios: customers holding a greeting, greetings beyond one, actions left uncertain.
    'customers greeted': held ? [...held.values()].filter((n) => n > 0).length : '-',
    'repeated messages': held ? [...held.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0) : '-',
    uncertain: greetings ? (greetings.uncertain ?? 0) : '-',
    'recovery s': firstWriteAfter ? ((firstWriteAfter.at - faultEnd) / 1000).toFixed(1) : '-',
    'drain s': ((finished - started) / 1000).toFixed(1) + (settled ? '' : ' (deadline)'),
  };
}

const isTagWrite = (r: CrmRequest) => r.method === 'POST' && /^\/v1\/contacts\/[^/]+\/tags\//.test(r.path);
const contactOf = (r: CrmRequest) => r.path.split('/')[3];

async function hasVip(sandboxUrl: string, id: string): Promise<boolean> {
  const res = await fetch(`${sandboxUrl}/_sandbox/state/contacts/${id}`);
  if (!res.ok) return false;
  const contact = (await res.json()) as { tags: { id: string }[] };
  return contact.tags.some((t) => t.id === VIP);
}

/**
 * A poison event must end, never loop: its inbox event failed (after its attempts), or processed
 * with every run of it finished (a 404 write fails its run). Counted from the ledger.
 */
async function poisonTerminal(databaseUrl: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let n = 0;
    await until(
      async () => {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM inbox_events e
            WHERE e.contact_id = ANY($1)
              AND (e.status = 'failed' OR (e.status = 'processed' AND NOT EXISTS (
                    SELECT 1 FROM runs r WHERE r.inbox_event_id = e.id AND r.status IN ('pending', 'running'))))`,
          [ids],
        );
        n = rows[0].n;
        return n === ids.length;
      },
      SETTLE_MS,
      1_000,
    );
    return n;
  } finally {
    await client.end();
  }
}

async function faultsUsedUp(sandboxUrl: string): Promise<number> {
  await until(async () => {
    const res = await fetch(`${sandboxUrl}/_sandbox/faults`);
    return ((await res.json()) as { data: unknown[] }).data.length === 0;
  }, SETTLE_MS);
  return Date.now();
}

async function control(sandboxUrl: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandboxUrl}/_sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${await res.text()}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
