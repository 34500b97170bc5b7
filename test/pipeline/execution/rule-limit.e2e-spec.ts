import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import { loadConfig } from '../../../src/runtime/config/load-config';
import { RuleLimitService } from '../../../src/pipeline/execution/timing/rule-limit.service';

// The per-rule limit against a real Redis: concurrent takers (as from several engine processes)
// never get more than `max` slots of one period, also when the counter is rebuilt from the ledger.
describe('rule limit counter', () => {
  const base = loadConfig();
  const prefix = `crmr-test-limit-${randomUUID().slice(0, 8)}`;
  const config = { ...base, redis: { ...base.redis, prefix } };
  // Two services: two Redis connections, like two processes.
  const services = [new RuleLimitService(config), new RuleLimitService(config)];

  const noRuns = async () => 0;

  afterAll(async () => {
    const redis = new IORedis(base.redis.url);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    for (const s of services) await s.onApplicationShutdown();
  });

  it('gives exactly max slots to many concurrent takers, and the others the next period start', async () => {
    const limit = { max: 5, perMs: 7 * 86_400_000, over: 'queue' as const };
    const now = new Date('2031-01-07T10:00:00Z');
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => services[i % 2].take('burst', limit, noRuns, now)),
    );
    expect(outcomes.filter((o) => o.taken)).toHaveLength(5);
    const refused = outcomes.filter((o) => !o.taken);
    expect(refused).toHaveLength(35);
    expect(new Set(refused.map((o) => (o.taken ? '' : o.nextPeriod.toISOString())))).toEqual(
      new Set(['2031-01-09T00:00:00.000Z']),
    );
  });

  it('counts each rule and each period apart', async () => {
    const limit = { max: 1, perMs: 3_600_000, over: 'skip' as const };
    const t = new Date('2031-01-07T10:30:00Z');
    expect((await services[0].take('a', limit, noRuns, t)).taken).toBe(true);
    expect((await services[1].take('a', limit, noRuns, t)).taken).toBe(false);
    expect((await services[1].take('b', limit, noRuns, t)).taken).toBe(true);
    expect((await services[0].take('a', limit, noRuns, new Date('2031-01-07T11:00:00Z'))).taken).toBe(true);
  });

  it('rebuilds a missing counter from the ledger once, even when two processes rebuild at once', async () => {
    const limit = { max: 5, perMs: 7 * 86_400_000, over: 'queue' as const };
    const now = new Date('2031-02-07T10:00:00Z');
    const asked: string[] = [];
    // The ledger knows 3 slots taken in this period; answering a loop turn later lets every
    // concurrent taker find the counter missing before any of them seeds it.
    const ledger = async (from: Date, to: Date) => {
      asked.push(`${from.toISOString()}..${to.toISOString()}`);
      await new Promise((resolve) => setImmediate(resolve));
      return 3;
    };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => services[i % 2].take('rebuilt', limit, ledger, now)),
    );
    expect(outcomes.filter((o) => o.taken)).toHaveLength(2); // 5 - 3, not 2 x (5 - 3)
    expect(asked.length).toBeGreaterThan(1); // they did rebuild concurrently
    expect(new Set(asked)).toEqual(new Set(['2031-02-06T00:00:00.000Z..2031-02-13T00:00:00.000Z']));
    asked.length = 0;
    expect((await services[0].take('rebuilt', limit, ledger, now)).taken).toBe(false);
    expect(asked).toEqual([]); // the counter exists again: Redis alone answers
  });
});
