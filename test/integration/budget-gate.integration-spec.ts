// The local side of the budget against a real Redis (Redis TIME, a window long enough that
// nothing expires during the test, so no assertion depends on timing).
import Redis from 'ioredis';
import {
  BudgetClosedError,
  BudgetGate,
  BudgetWaitTimeoutError,
} from '../../src/outbound/crm-gateway/budget-gate';
import { RateBudget, type BudgetParams } from '../../src/outbound/crm-gateway/rate-budget';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const runId = `test-gate-${process.pid}-${Date.now()}`;

const params = (limit: number): BudgetParams => ({
  limit,
  windowMs: 600_000,
  bulkMinShare: 0,
  marginMs: 10,
  leaseMs: 10_000,
  bulkToleranceMs: 600_000,
  aliveTtlMs: 10_000,
  coldStart: false,
});

describe('BudgetGate', () => {
  let redis: Redis;
  let n = 0;
  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${runId}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  const budgetOf = (limit: number) => new RateBudget(redis, `${runId}:${++n}`, params(limit));

  it('grants a burst in arrival order, up to the limit', async () => {
    const gate = new BudgetGate(budgetOf(3));
    const order: number[] = [];
    await Promise.all([0, 1, 2].map((i) => gate.acquire('bulk').then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2]);
    await gate.close();
  });

  it('asks for a slot in the round trip that queues the call, not after its answer', async () => {
    const budget = budgetOf(2);
    const steps: string[] = [];
    const enqueue = budget.enqueue.bind(budget);
    const tryAcquire = budget.tryAcquire.bind(budget);
    jest.spyOn(budget, 'enqueue').mockImplementation(async (...args) => {
      steps.push('enqueue sent');
      const seq = await enqueue(...args);
      steps.push('enqueue answered');
      return seq;
    });
    jest.spyOn(budget, 'tryAcquire').mockImplementation(async (...args) => {
      steps.push('try sent');
      const result = await tryAcquire(...args);
      steps.push('try answered');
      return result;
    });
    const gate = new BudgetGate(budget);
    const grant = await gate.acquire('interactive');
    // Redis runs one connection's commands in order: the enqueue first, so the ticket is known.
    expect(steps).toEqual(['enqueue sent', 'try sent', 'enqueue answered', 'try answered']);
    expect((await budget.state()).scores).toHaveLength(1);
    await grant.release();
    await gate.close();
  });

  it('fails a call whose enqueue failed, and grants the next one', async () => {
    const budget = budgetOf(2);
    const enqueue = budget.enqueue.bind(budget);
    jest.spyOn(budget, 'enqueue').mockRejectedValueOnce(new Error('redis said no'));
    const gate = new BudgetGate(budget);
    await expect(gate.acquire('interactive')).rejects.toThrow('redis said no');
    jest.spyOn(budget, 'enqueue').mockImplementation(enqueue);
    const grant = await gate.acquire('interactive');
    expect((await budget.state()).scores).toHaveLength(1);
    await grant.release();
    await gate.close();
  });

  it('rejects the calls still waiting when closed, and takes them out of the shared queue', async () => {
    const budget = budgetOf(1);
    const gate = new BudgetGate(budget);
    const grant = await gate.acquire('interactive');
    const waiting = gate.acquire('interactive').catch((err: unknown) => err);
    while ((await budget.state()).waitingInteractive === 0) await new Promise((r) => setTimeout(r, 5));
    expect(gate.localWaiting()).toEqual({ interactive: 1, bulk: 0 });

    await gate.close();
    expect(await waiting).toBeInstanceOf(BudgetClosedError);
    expect((await budget.state()).waitingInteractive).toBe(0);
    await expect(gate.acquire('bulk')).rejects.toBeInstanceOf(BudgetClosedError);
    await grant.release();
  });

  it('counts a released call from its release, once, however often release is called', async () => {
    const budget = budgetOf(2);
    const gate = new BudgetGate(budget);
    const grant = await gate.acquire('bulk');
    const leased = (await budget.state()).scores[0];
    await Promise.all([grant.release(), grant.release()]);
    const state = await budget.state();
    expect(state.scores).toHaveLength(1);
    expect(state.scores[0]).toBeLessThan(leased); // from lease end to the answer's time
    await gate.close();
  });

  it('gives up on a waiter whose slot cannot come before its deadline, and frees its place', async () => {
    const budget = budgetOf(1);
    const gate = new BudgetGate(budget);
    const grant = await gate.acquire('bulk');
    // The window is ten minutes long: the next slot is far beyond a one-minute deadline, which
    // the gate knows at once (waiting for the deadline would outlast the test's timeout).
    const err = await gate.acquire('bulk', Date.now() + 60_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetWaitTimeoutError);
    expect(gate.localWaiting()).toEqual({ interactive: 0, bulk: 0 });
    expect((await budget.state()).waitingBulk).toBe(0);
    await grant.release();
    await gate.close();
  });

  it('reports a cold start once, with how long the budget stays closed', async () => {
    const budget = new RateBudget(redis, `${runId}:${++n}`, {
      ...params(5),
      windowMs: 1_000,
      coldStart: true,
    });
    const colds: number[] = [];
    const gate = new BudgetGate(budget, { onColdStart: (ms) => colds.push(ms) });
    await Promise.all([gate.acquire('interactive'), gate.acquire('bulk')]);
    expect(colds).toHaveLength(1);
    expect(colds[0]).toBeGreaterThan(900);
    await gate.close();
  });
});
