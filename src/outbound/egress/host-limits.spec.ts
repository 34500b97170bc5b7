// The per-host limits against a real Redis: in-flight requests and starts per window are capped
// across every holder of the keys (every process), released slots come back, hosts are apart.
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { HostLimitedError } from '../../language/net/egress-errors';
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

  it('says when to come back: the window remainder for a rate, a second for a full concurrency', async () => {
    const l = limits({ rate: 1, concurrency: 5, windowMs: 60_000 });
    await l.acquire('erp.test', signal);
    const rate = await l.acquire('erp.test', signal).then(
      () => undefined,
      (err: HostLimitedError) => err,
    );
    expect(rate?.retryInMs).toBeGreaterThan(50_000);
    const c = limits({ concurrency: 1 });
    await c.acquire('shop.test', signal);
    const busy = await c.acquire('shop.test', signal).then(
      () => undefined,
      (err: HostLimitedError) => err,
    );
    expect(busy?.retryInMs).toBe(1_000);
  });

  // Finding: after kill -9 the killed slots stayed held 120 s. A held slot is renewed by a heartbeat;
  // a holder that stops beating (killed) loses it within leaseMs.
  it("keeps a live holder's slot past its lease by the heartbeat, and frees a dead one's", async () => {
    const leaseMs = 1_500;
    const live = limits({ concurrency: 1, leaseMs });
    const release = await live.acquire('erp.test', signal);
    await new Promise((r) => setTimeout(r, leaseMs * 3));
    await expect(live.acquire('erp.test', signal)).rejects.toBeInstanceOf(HostLimitedError);
    await release();
    // A killed process: its lease is in Redis and nothing renews it.
    const [sec, usec] = await redis.time();
    const now = Number(sec) * 1000 + Math.floor(Number(usec) / 1000);
    await redis.zadd(`${prefix}:egress:gone.test:inflight`, now + leaseMs, 'killed-token');
    await new Promise((r) => setTimeout(r, leaseMs * 2));
    await expect(limits({ concurrency: 1, leaseMs }).acquire('gone.test', signal)).resolves.toEqual(
      expect.any(Function),
    );
  });
});
