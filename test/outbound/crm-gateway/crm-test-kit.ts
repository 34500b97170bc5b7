// Shared set-up of the gateway's end-to-end tests: a sandbox on a random port, a config
// pointing at it with a unique Redis prefix, and a record of every request the sandbox got.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import Redis from 'ioredis';
import type { AppConfig } from '../../../src/runtime/config/app-config';
import { loadConfig } from '../../../src/runtime/config/load-config';
import { CrmDirectory } from '../../../src/outbound/crm-gateway/crm-directory.service';
import { CrmGateway } from '../../../src/outbound/crm-gateway/crm-gateway.service';
import { createCrmRedis } from '../../../src/outbound/crm-gateway/crm-redis';
import { startSandbox, type RunningSandbox } from '@crm-rules/crm-sandbox';
import { KEYS } from '../../support/demo-fixture';
import { request } from '../../support/http';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export function testConfig(prefix: string, over: Record<string, string> = {}): AppConfig {
  return loadConfig({
    REDIS_URL,
    REDIS_PREFIX: prefix,
    CRM_API_KEY: KEYS.full,
    // The engine's default. With 2 s, a sandbox answer held up by a loaded machine (this in-process
    // sandbox shares the test's event loop) timed out and was retried: 72 arrivals for 60 calls in
    // gateway-budget. The fault suite sets its own short timeout.
    CRM_TIMEOUT_MS: '10000',
    CRM_MAX_RETRIES: '3',
    // Each suite starts its own sandbox: nothing was called before, so nothing to wait out.
    CRM_BUDGET_COLD_START: 'false',
    ...over,
  });
}

export interface Arrival {
  at: number; // performance.timeOrigin-based ms
  method: string;
  path: string;
}

/** Every HTTP request this process's servers receive (the sandbox is in-process). */
export function recordArrivals(): { arrivals: Arrival[]; stop(): void } {
  const arrivals: Arrival[] = [];
  const onStart = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    const path = (request.url ?? '').split('?')[0];
    if (path.startsWith('/v1/')) arrivals.push({ at: performance.now(), method: request.method ?? '', path });
  };
  subscribe('http.server.request.start', onStart);
  return { arrivals, stop: () => unsubscribe('http.server.request.start', onStart) };
}

export interface GatewayKit {
  gateway: CrmGateway;
  directory: CrmDirectory;
  redis: Redis;
  close(): Promise<void>;
}

/** A gateway as one engine process would have it: its own Redis connection, a shared budget. */
export function makeGateway(config: AppConfig): GatewayKit {
  const redis = createCrmRedis(config.redis.url);
  const gateway = new CrmGateway(config, redis);
  const directory = new CrmDirectory(gateway, redis, config);
  return {
    gateway,
    directory,
    redis,
    close: async () => {
      await gateway.close();
      await redis.quit();
    },
  };
}

export interface CrmSuite {
  sandbox: RunningSandbox;
  /** Two gateways as two engine processes would have them, sharing one budget. */
  a: GatewayKit;
  b: GatewayKit;
}

/**
 * A suite's set-up: a sandbox with this rate limit and two gateways on it under a unique Redis
 * prefix (`env` adds config); closed, and their Redis keys deleted, after the suite.
 */
export function useCrmSuite(
  name: string,
  rateLimit: { limit: number; windowMs: number },
  env: Record<string, string> = {},
): CrmSuite {
  const prefix = uniquePrefix(name);
  const suite = {} as CrmSuite;
  beforeAll(async () => {
    suite.sandbox = await startSandbox({ port: 0, rateLimit });
    const config = testConfig(prefix, { CRM_BASE_URL: suite.sandbox.url, ...env });
    suite.a = makeGateway(config);
    suite.b = makeGateway(config);
  });
  afterAll(async () => {
    await suite.a?.close();
    await suite.b?.close();
    await suite.sandbox?.close();
    await deleteKeys(prefix);
  });
  return suite;
}

/** A control-surface call (`/_sandbox/<path>`) that must succeed. */
export async function sandboxControl<T = unknown>(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await request<T>(`${sandbox.url}/_sandbox/${path}`, method, { body });
  if (res.status < 200 || res.status > 299)
    throw new Error(`sandbox control ${method} ${path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function deleteKeys(prefix: string, url = REDIS_URL): Promise<void> {
  const redis = new Redis(url);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
}

export const uniquePrefix = (name: string) => `test-${name}-${process.pid}-${Date.now()}`;
