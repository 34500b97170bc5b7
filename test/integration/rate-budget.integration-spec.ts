// The Lua core against a real Redis, with the clock passed in (no sleeping, no Redis TIME).
import Redis from 'ioredis';
import {
  budgetKeyPrefix,
  crmScope,
  RateBudget,
  type BudgetParams,
  type Priority,
} from '../../src/outbound/crm-gateway/rate-budget';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const runId = `test-${process.pid}-${Date.now()}`;
const T0 = 1_700_000_000_000;

const params = (over: Partial<BudgetParams> = {}): BudgetParams => ({
  limit: 10,
  windowMs: 1_000,
  bulkMinShare: 0.2,
  marginMs: 10,
  leaseMs: 500,
  bulkToleranceMs: 1_000, // effectively no pacing unless a test asks for it
  aliveTtlMs: 10_000,
  coldStart: false,
  ...over,
});

/** One ticket at a time, in the shape the assertions read best. */
async function tryOne(budget: RateBudget, ticket: string, priority: Priority, proc: string) {
  const r = await budget.tryAcquire([ticket], priority, proc);
  if (r.granted === 1) return { status: 'granted' };
  return r.lost ? { status: 'lost' } : { status: 'wait', waitMs: r.waitMs };
}

describe('RateBudget (Redis Lua)', () => {
  let redis: Redis;
  let now: number;
  let n = 0;
  let lastPrefix = '';

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${runId}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  function makeBudget(over: Partial<BudgetParams> = {}) {
    const prefix = `${runId}:${++n}`;
    lastPrefix = prefix;
    now = T0;
    return new RateBudget(redis, `${prefix}:b`, params(over), () => now);
  }

  async function take(budget: RateBudget, priority: Priority, proc = 'p1') {
    const ticket = `${proc}|${++n}`;
    await budget.enqueue(ticket, priority, proc);
    return { ticket, result: await tryOne(budget, ticket, priority, proc) };
  }

  it('grants up to the limit, then says when the oldest call stops counting', async () => {
    const budget = makeBudget();
    for (let i = 0; i < 10; i++) {
      const { ticket, result } = await take(budget, 'interactive');
      expect(result.status).toBe('granted');
      await budget.release(ticket, 'interactive');
      now += 1;
    }
    const { result } = await take(budget, 'interactive');
    // First release happened at T0: it counts until T0 + window + margin.
    expect(result).toEqual({ status: 'wait', waitMs: T0 + 1_000 + 10 + 1 - now });
  });

  it('frees a slot one window after the answer came back, not after the grant', async () => {
    const budget = makeBudget({ limit: 1 });
    const first = await take(budget, 'interactive');
    expect(first.result.status).toBe('granted');
    now += 300; // the call took 300 ms
    await budget.release(first.ticket, 'interactive');
    const second = await take(budget, 'interactive');
    now = T0 + 1_000 + 10; // one window after the grant: still counting
    expect(await tryOne(budget, second.ticket, 'interactive', 'p1')).toMatchObject({ status: 'wait' });
    now = T0 + 300 + 1_000 + 10; // one window (+ margin) after the answer
    expect(await tryOne(budget, second.ticket, 'interactive', 'p1')).toEqual({ status: 'granted' });
  });

  it('counts an unanswered call until its lease ends', async () => {
    const budget = makeBudget({ limit: 1, leaseMs: 500 });
    await take(budget, 'interactive'); // never released (process crashed mid-call)
    const next = await take(budget, 'interactive');
    now = T0 + 500 + 1_000 + 9;
    expect(await tryOne(budget, next.ticket, 'interactive', 'p1')).toMatchObject({ status: 'wait' });
    now = T0 + 500 + 1_000 + 10;
    expect(await tryOne(budget, next.ticket, 'interactive', 'p1')).toEqual({ status: 'granted' });
  });

  it('serves interactive before bulk once bulk has its share of the window', async () => {
    const budget = makeBudget({ limit: 4, bulkMinShare: 0.25 });
    await take(budget, 'bulk'); // bulk holds its 1-slot share
    const bulkTicket = 'p1|bulk-waiting';
    await budget.enqueue(bulkTicket, 'bulk', 'p1');
    const inter = ['p2|i1', 'p2|i2', 'p2|i3'];
    for (const t of inter) await budget.enqueue(t, 'interactive', 'p2');
    expect(await tryOne(budget, bulkTicket, 'bulk', 'p1')).toMatchObject({ status: 'wait' });
    for (const t of inter)
      expect(await tryOne(budget, t, 'interactive', 'p2')).toEqual({ status: 'granted' });
    expect(await tryOne(budget, bulkTicket, 'bulk', 'p1')).toMatchObject({ status: 'wait' });
  });

  it('keeps the guaranteed bulk share while interactive work waits', async () => {
    const budget = makeBudget({ limit: 10, bulkMinShare: 0.2 });
    const inter = Array.from({ length: 20 }, (_, i) => `p2|i${i}`);
    for (const t of inter) await budget.enqueue(t, 'interactive', 'p2');
    const bulk = ['p1|b0', 'p1|b1', 'p1|b2'];
    for (const t of bulk) await budget.enqueue(t, 'bulk', 'p1');
    // Two bulk calls (20% of 10) go even though interactive waiters arrived first...
    expect(await tryOne(budget, bulk[0], 'bulk', 'p1')).toEqual({ status: 'granted' });
    expect(await tryOne(budget, bulk[1], 'bulk', 'p1')).toEqual({ status: 'granted' });
    // ...the third is beyond the share: interactive goes first.
    expect(await tryOne(budget, bulk[2], 'bulk', 'p1')).toMatchObject({ status: 'wait' });
    let granted = 0;
    for (const t of inter) if ((await tryOne(budget, t, 'interactive', 'p2')).status === 'granted') granted++;
    expect(granted).toBe(8);
  });

  it('grants a burst of one process in one round trip, as far as the budget allows', async () => {
    const budget = makeBudget({ limit: 3 });
    const tickets = ['p1|a', 'p1|b', 'p1|c', 'p1|d', 'p1|e'];
    for (const t of tickets) await budget.enqueue(t, 'interactive', 'p1');
    // The next slot frees when the earliest unanswered call's lease (500) plus a window ends.
    expect(await budget.tryAcquire(tickets, 'interactive', 'p1')).toEqual({
      granted: 3,
      lost: false,
      coldStart: false,
      waitMs: 500 + 1_000 + 10 + 1,
    });
    expect((await budget.state()).waitingInteractive).toBe(2);
  });

  it('keeps FIFO order within a class across processes', async () => {
    const budget = makeBudget({ limit: 1 });
    await budget.enqueue('pa|1', 'interactive', 'pa');
    await budget.enqueue('pb|1', 'interactive', 'pb');
    expect(await tryOne(budget, 'pb|1', 'interactive', 'pb')).toMatchObject({ status: 'wait' });
    expect(await tryOne(budget, 'pa|1', 'interactive', 'pa')).toEqual({ status: 'granted' });
  });

  it('paces bulk evenly over the window instead of bursting', async () => {
    const budget = makeBudget({ limit: 10, windowMs: 1_000, bulkToleranceMs: 200 });
    const results: string[] = [];
    for (let i = 0; i < 5; i++) results.push((await take(budget, 'bulk')).result.status);
    // 200 ms of credit at 100 ms per call: three calls now, the rest one per 100 ms.
    expect(results).toEqual(['granted', 'granted', 'granted', 'wait', 'wait']);
    now += 100;
    const later = await take(budget, 'bulk');
    expect(later.result.status).toBe('wait'); // two bulk waiters are ahead of it
  });

  it('counts interactive calls against the pace, so bulk spreads what is left over the window', async () => {
    const budget = makeBudget({ limit: 10, windowMs: 1_000, bulkMinShare: 0, bulkToleranceMs: 0 });
    for (let i = 0; i < 3; i++) expect((await take(budget, 'interactive')).result.status).toBe('granted');
    // Three interactive calls used 300 ms of pace: bulk waits for it although 7 slots are free.
    expect((await take(budget, 'bulk')).result).toEqual({ status: 'wait', waitMs: 300 });
  });

  it('lets bulk below its guaranteed share go one call per window/share, whatever the pace', async () => {
    const budget = makeBudget({ limit: 10, windowMs: 1_000, bulkMinShare: 0.2, bulkToleranceMs: 0 });
    for (let i = 0; i < 5; i++) await take(budget, 'interactive'); // pace used up for 500 ms
    const first = await take(budget, 'bulk');
    const second = await take(budget, 'bulk');
    expect([first.result.status, second.result.status]).toEqual(['granted', 'wait']);
    now += 499;
    expect((await tryOne(budget, second.ticket, 'bulk', 'p1')).status).toBe('wait');
    now += 1; // share of 2 per 1000 ms: one bulk call every 500 ms
    expect(await tryOne(budget, second.ticket, 'bulk', 'p1')).toEqual({ status: 'granted' });
  });

  it('makes every caller wait out a shared pause, and never shortens it', async () => {
    const budget = makeBudget();
    expect(await budget.pause(3_000)).toBe(T0 + 3_000);
    expect(await budget.pause(1_000)).toBe(T0 + 3_000);
    const { ticket, result } = await take(budget, 'interactive', 'other-process');
    expect(result).toEqual({ status: 'wait', waitMs: 3_000 });
    now = T0 + 3_000;
    expect(await tryOne(budget, ticket, 'interactive', 'other-process')).toEqual({ status: 'granted' });
  });

  it('drops the waiters of a process that stopped heart-beating', async () => {
    const budget = makeBudget({ limit: 1, aliveTtlMs: 1_000 });
    await budget.enqueue('dead|1', 'interactive', 'dead');
    await budget.enqueue('live|1', 'interactive', 'live');
    now += 500;
    expect(await tryOne(budget, 'live|1', 'interactive', 'live')).toMatchObject({ status: 'wait' });
    now += 1_000; // 'dead' last touched the budget 1.5 s ago
    expect(await tryOne(budget, 'live|1', 'interactive', 'live')).toEqual({ status: 'granted' });
    expect(await tryOne(budget, 'dead|1', 'interactive', 'dead')).toEqual({ status: 'lost' });
  });

  it('reports the shared state for ETAs', async () => {
    const budget = makeBudget();
    await take(budget, 'bulk');
    await take(budget, 'interactive');
    await budget.enqueue('p9|w', 'bulk', 'p9');
    const state = await budget.state();
    expect(state).toMatchObject({ now: T0, bulkUsed: 1, waitingInteractive: 0, waitingBulk: 1 });
    expect(state.scores).toEqual([T0 + 500, T0 + 500]);
  });

  describe('cold start (the state is missing: first start, FLUSHALL, restart, failover)', () => {
    it('keeps the budget closed for one window (+ margin), then grants the whole limit', async () => {
      const budget = makeBudget({ coldStart: true, limit: 3 });
      const first = await take(budget, 'interactive');
      expect(first.result).toEqual({ status: 'wait', waitMs: 1_000 + 10 });
      now += 1_009;
      expect(await tryOne(budget, first.ticket, 'interactive', 'p1')).toEqual({ status: 'wait', waitMs: 1 });
      now += 1;
      expect(await tryOne(budget, first.ticket, 'interactive', 'p1')).toEqual({ status: 'granted' });
      for (let i = 0; i < 2; i++) expect((await take(budget, 'bulk')).result.status).toBe('granted');
      expect((await take(budget, 'interactive')).result.status).toBe('wait');
    });

    it('says once that it started cold, and reports the closed window to ETAs', async () => {
      const budget = makeBudget({ coldStart: true });
      expect((await budget.state()).pausedUntil).toBe(T0 + 1_010); // would start cold
      await budget.enqueue('p1|a', 'bulk', 'p1');
      await budget.enqueue('p1|b', 'bulk', 'p1');
      const results = [
        await budget.tryAcquire(['p1|a'], 'bulk', 'p1'),
        await budget.tryAcquire(['p1|b'], 'bulk', 'p1'),
      ];
      expect(results.map((r) => r.coldStart)).toEqual([true, false]);
      expect((await budget.state()).pausedUntil).toBe(T0 + 1_010);
    });

    it('starts cold again after the keys are flushed, even while calls were counting', async () => {
      const budget = makeBudget({ coldStart: true, limit: 2 });
      const first = await take(budget, 'interactive'); // the first start is cold too
      now += 1_010;
      expect(await tryOne(budget, first.ticket, 'interactive', 'p1')).toEqual({ status: 'granted' });
      expect((await take(budget, 'interactive')).result.status).toBe('granted');
      const keys = await redis.keys(`${lastPrefix}:b:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys); // what FLUSHALL does to this budget
      // Without the cold start these two would be granted: 4 calls within one window.
      now += 100;
      const after = await take(budget, 'interactive');
      expect(after.result).toEqual({ status: 'wait', waitMs: 1_010 });
    });

    it('does not close anything when disabled (an embedded sandbox that just started)', async () => {
      const budget = makeBudget({ coldStart: false });
      expect((await take(budget, 'interactive')).result.status).toBe('granted');
    });
  });

  it('names its keys by the organization when known, else by a hash of the API key, never the key', () => {
    const byKey = budgetKeyPrefix('crmr', crmScope({ apiKey: 'sk_demo_full' }));
    expect(byKey).not.toContain('sk_demo_full');
    expect(byKey).toMatch(/^crmr:crm-budget:\{key-[0-9a-f]{16}\}$/);
    expect(budgetKeyPrefix('crmr', crmScope({ apiKey: 'sk_other_full' }))).not.toBe(byKey);
    const org = '0d000000-0000-4000-8000-000000000001';
    expect(budgetKeyPrefix('crmr', crmScope({ apiKey: 'sk_demo_full', organizationId: org }))).toBe(
      budgetKeyPrefix('crmr', crmScope({ apiKey: 'sk_demo_contacts', organizationId: org })),
    );
  });
});
