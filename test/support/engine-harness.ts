// Boots a whole engine for an end-to-end test: its own Postgres database (migrated), its own
// Redis prefix, an embedded sandbox on a random port, HTTP between them. Nothing is mocked.
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { EXAMPLE_RULES_MARKER } from '../../src/runtime/config/example-rules';
import IORedis from 'ioredis';
import type { AppConfig } from '../../src/runtime/config/app-config';
import { loadConfig } from '../../src/runtime/config/load-config';
import { dropDatabase } from '../../src/persistence/schema/migrate';
import { startEngine, RunningEngine, EngineOptions } from '../../src/engine';
import { KEYS } from './demo-fixture';
import { api } from './http';
import { uniquePhone } from './phones';
import { startTcpProxy, TcpProxy } from './tcp-proxy';
import { eventually } from './polling';
import { testDatabaseUrl } from './test-db';

// Most e2e files import these from here, with the harness.
export { eventually, testDatabaseUrl };

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface Harness extends RunningEngine {
  databaseUrl: string;
  rulesDir: string;
  redis: IORedis;
  sandboxUrl: string;
  /** Set with `proxyPostgres`: cut and restore the engine's Postgres connections. */
  pgProxy?: TcpProxy;
  stop(): Promise<void>;
}

export interface HarnessOptions extends EngineOptions {
  /** Rule files to use instead of the repository's rules/ directory: name → YAML text. */
  rules?: Record<string, string>;
  env?: Record<string, string>;
  /** Route the engine's Postgres traffic through a TCP proxy the test can cut. */
  proxyPostgres?: boolean;
}

export function tempRulesDir(rules?: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'crmr-rules-'));
  if (!rules) {
    // Without the examples' marker: a second engine of a test may point CRM_BASE_URL at this
    // harness's sandbox, and the marker refuses example rules with any CRM_BASE_URL (example-rules.ts).
    cpSync(join(__dirname, '..', '..', 'rules'), dir, {
      recursive: true,
      filter: (src) => basename(src) !== EXAMPLE_RULES_MARKER,
    });
    return dir;
  }
  for (const [name, text] of Object.entries(rules)) writeFileSync(join(dir, name), text);
  return dir;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const databaseUrl = await testDatabaseUrl();
  const rulesDir = tempRulesDir(options.rules);
  let engineDatabaseUrl = databaseUrl;
  let pgProxy: TcpProxy | undefined;
  if (options.proxyPostgres) {
    const u = new URL(databaseUrl);
    pgProxy = await startTcpProxy(u.hostname, Number(u.port || 5432));
    u.hostname = '127.0.0.1';
    u.port = String(pgProxy.port);
    engineDatabaseUrl = u.toString();
  }
  const prefix = `crmr-test-${process.pid}-${randomUUID().slice(0, 8)}`;
  const config: AppConfig = loadConfig({
    ...process.env,
    CRM_BASE_URL: '',
    CRM_API_KEY: '',
    PUBLIC_URL: '',
    DATABASE_URL: engineDatabaseUrl,
    REDIS_PREFIX: prefix,
    RULES_DIR: rulesDir,
    PORT: '0',
    SANDBOX_PORT: '0',
    ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    ...options.env,
  });
  const engine = await startEngine(config, {
    quiet: true,
    ...options,
    sandbox: { webhookRetryBaseMs: 20, ...options.sandbox },
  });
  const redis = new IORedis(config.redis.url, { maxRetriesPerRequest: null });
  return {
    ...engine,
    databaseUrl,
    rulesDir,
    redis,
    // An engine pointed at another engine's sandbox (CRM_BASE_URL) has none of its own.
    sandboxUrl: engine.sandbox?.url ?? config.crm.baseUrl!,
    pgProxy,
    stop: async () => {
      pgProxy?.up();
      await engine.close();
      await pgProxy?.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await dropDatabase(databaseUrl);
    },
  };
}

/** The CRM's API (the embedded sandbox) with an API key, the demo's full key by default. */
/** The engine's admin API with the harness's token. */
export const admin = (h: Harness, method: string, path: string, body?: unknown) =>
  api(h.url, method, path, body, { 'x-admin-token': ADMIN_TOKEN });

export const crm = (h: Harness, method: string, path: string, body?: unknown, key: string = KEYS.full) =>
  api(h.sandboxUrl, method, path, body, { authorization: `Bearer ${key}` });

/** Creates a contact in the sandbox with a phone no fixture uses; fails loudly if the CRM refuses. */
export async function newContact(
  h: Harness,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await crm(h, 'POST', '/v1/contacts', { name, phone: uniquePhone(), ...extra });
  if (res.status !== 201)
    throw new Error(`sandbox refused contact ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
