// The demo never erases a real ledger. A start with ROLE=all and no CRM_BASE_URL runs the embedded
// demo, whose clean-up (forgetPreviousSandbox, what main.ts calls) TRUNCATEd runs, action_results,
// enrollments, inbox_events and webhook_subscriptions whatever the database held, NODE_ENV=production
// included. Now it runs only on a database carrying the demo marker, written by the demo on an empty one.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../src/runtime/config/app-config';
import { loadConfig } from '../../src/runtime/config/load-config';
import { forgetPreviousSandbox } from '../../src/tooling/demo/embedded-demo';
import { createTestDb, type TestDb } from '../support/test-db';
import { ensureBuilt } from '../support/worker-process';

jest.setTimeout(60_000);

describe('the demo never erases a real ledger', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb();
  });
  afterEach(() => db.drop());

  const demoConfig = (nodeEnv = 'development'): AppConfig => ({
    ...loadConfig({ NODE_ENV: 'development' }),
    databaseUrl: db.url,
    nodeEnv,
  });
  const count = async (table: string) =>
    (await db.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;
  const aLedger = async () => {
    const [run] = await db.dataSource.query(
      `INSERT INTO runs (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace, actions, priority)
       VALUES ($1, 'welcome', 'v', 's', 'c1', 'succeeded', '[]', '[]', 'interactive') RETURNING id`,
      [`event:${randomUUID()}`],
    );
    await db.dataSource.query(
      `INSERT INTO action_results (run_trigger_at, run_id, action_index, action, status) VALUES ((SELECT trigger_at FROM runs WHERE id = $1), $1, 0, '{"type":"send-message"}', 'succeeded')`,
      [run.id],
    );
    await db.dataSource.query(
      `INSERT INTO inbox_events (event_key, type, payload) VALUES ($1, 'contact.updated', '{}')`,
      [`crm:${randomUUID()}`],
    );
  };
  const ledgerCounts = async () => ({
    runs: await count('runs'),
    action_results: await count('action_results'),
    inbox_events: await count('inbox_events'),
  });

  it('refuses production with no CRM_BASE_URL and leaves every row', async () => {
    await aLedger();
    await expect(forgetPreviousSandbox(demoConfig('production'))).rejects.toThrow(
      /NODE_ENV=production .* no CRM_BASE_URL.*nothing was erased/,
    );
    expect(await ledgerCounts()).toEqual({ runs: 1, action_results: 1, inbox_events: 1 });
    expect(await count('demo_marker')).toBe(0);
  });

  it('npm start with NODE_ENV=production and no CRM_BASE_URL exits 1, saying why, rows intact', async () => {
    ensureBuilt();
    await aLedger();
    const cwd = mkdtempSync(join(tmpdir(), 'crmr-prod-demo-'));
    try {
      const started = spawnSync(process.execPath, [join(__dirname, '..', '..', 'dist', 'src', 'main.js')], {
        cwd,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          DATABASE_URL: db.url,
          REDIS_URL: loadConfig().redis.url,
          WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
          ADMIN_TOKEN: randomBytes(24).toString('hex'),
          PORT: '0',
          SANDBOX_PORT: '0',
        },
      });
      expect(started.status).toBe(1);
      expect(started.stderr).toMatch(/NODE_ENV=production with ROLE=all and no CRM_BASE_URL/);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
    expect(await ledgerCounts()).toEqual({ runs: 1, action_results: 1, inbox_events: 1 });
  });

  it('refuses a database holding runs and events but no marker, and leaves every row', async () => {
    await aLedger();
    await expect(forgetPreviousSandbox(demoConfig())).rejects.toThrow(
      /holds rows \(action_results, runs, inbox_events\) but no demo marker/,
    );
    expect(await ledgerCounts()).toEqual({ runs: 1, action_results: 1, inbox_events: 1 });
    expect(await count('demo_marker')).toBe(0);
  });

  it('marks a fresh database, then cleans it at every later demo start', async () => {
    await forgetPreviousSandbox(demoConfig());
    expect(await count('demo_marker')).toBe(1);
    await aLedger(); // what the demo's own run left
    await forgetPreviousSandbox(demoConfig());
    expect(await ledgerCounts()).toEqual({ runs: 0, action_results: 0, inbox_events: 0 });
    expect(await count('demo_marker')).toBe(1);
  });
});
