// The per-host limits against a real Redis: in-flight requests and starts per window are capped
// across every holder of the keys (every process), released slots come back, hosts are apart.
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { HostLimitedError } from '../net/egress-errors';
import { HostLimits, type HostLimitParams } from './host-limits';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('HostLimits (Redis Lua)', () => {
  let redis: Redis;
  let prefix: string;
  const signal = new AbortController().signal;
  // Two instances over one Redis play two processes. No waiting: a full host fails at once.
  const limits = (p: Partial<HostLimitParams>) =>
    new HostLimits(redis, {
      prefix,
      concurrency: 10,
      rate: 100,
      windowMs: 60_000,
      leaseMs: 60_000,
      maxWaitMs: 0,
      ...p,
    });

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  beforeEach(() => {
    prefix = `crmr-test-egress-${randomUUID().slice(0, 8)}`;
  });
  afterEach(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  });
  afterAll(() => redis.disconnect());

  it('holds in-flight requests of a host to its concurrency across processes', async () => {
    const [a, b] = [limits({ concurrency: 2 }), limits({ concurrency: 2 })];
    const first = await a.acquire('erp.test', signal);
    await b.acquire('erp.test', signal);
    await expect(a.acquire('erp.test', signal)).rejects.toThrow(/concurrency limit/);
    await first();
    await expect(b.acquire('erp.test', signal)).resolves.toEqual(expect.any(Function));
  });

  it('holds starts per window to the rate, released or not', async () => {
    const l = limits({ rate: 2 });
    await (
      await l.acquire('erp.test', signal)
    )();
    await (
      await l.acquire('erp.test', signal)
    )();
    await expect(l.acquire('erp.test', signal)).rejects.toBeInstanceOf(HostLimitedError);
  });

  it('keeps hosts apart', async () => {
    const l = limits({ concurrency: 1 });
    await l.acquire('erp.test', signal);
    await expect(l.acquire('shop.test', signal)).resolves.toEqual(expect.any(Function));
  });
});
