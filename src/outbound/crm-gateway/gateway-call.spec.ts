import { BudgetWaitTimeoutError } from './budget-gate';
import { CrmApiError, CrmTransportError } from '../../language/crm-terms/crm-errors';
import { callWithBudget, type CallDeps } from './gateway-call';
import { GatewayMetrics } from './gateway-metrics';
import { MAX_RATE_LIMIT_PAUSES } from './retry-policy';

const apiError = (status: number, retryAfterMs?: number) =>
  new CrmApiError({
    status,
    type: status === 429 ? 'rate_limit_error' : 'api_error',
    code: status === 429 ? 'rate_limit_exceeded' : `code_${status}`,
    message: `status ${status}`,
    requestId: `req_${status}`,
    operation: 'addTag',
    retryAfterMs,
  });

/** A scripted CRM: each attempt takes the next outcome; records what the loop did, in order. */
function harness(outcomes: (Error | string)[], maxRetries = 3, grants: ('ok' | 'timeout')[] = []) {
  const log: string[] = [];
  const metrics = new GatewayMetrics();
  const failures: unknown[] = [];
  const capped: [number, number][] = [];
  const deadlines: number[] = [];
  let acquired = 0;
  const deps: CallDeps = {
    acquire: async (priority, deadline) => {
      log.push(`acquire:${priority}`);
      deadlines.push(deadline);
      if (grants[acquired++] === 'timeout') throw new BudgetWaitTimeoutError(100, 5_000);
      return { waitedMs: 5, release: async () => void log.push('release') };
    },
    pause: async (ms) => void log.push(`pause:${ms}`),
    sleep: async (ms) => void log.push(`sleep:${ms}`),
    random: () => 0.5,
    now: () => 0,
    maxRetries,
    maxPauseMs: 60_000,
    maxWaitMs: 120_000,
    metrics,
    onFinalFailure: (_op, err) => void failures.push(err),
    onPauseCapped: (_op, asked, cappedMs) => void capped.push([asked, cappedMs]),
  };
  let i = 0;
  const fn = async () => {
    const next = outcomes[i++];
    log.push('call');
    if (next instanceof Error) throw next;
    return next;
  };
  return {
    log,
    metrics,
    failures,
    capped,
    deadlines,
    deps,
    fn,
    run: () => callWithBudget(deps, 'addTag', { priority: 'bulk' }, fn),
  };
}

describe('callWithBudget', () => {
  it('retries a 500 once and returns the success, releasing each slot before backing off', async () => {
    const h = harness([apiError(500), 'ok']);
    await expect(h.run()).resolves.toBe('ok');
    expect(h.log).toEqual([
      'acquire:bulk',
      'call',
      'release',
      'sleep:125',
      'acquire:bulk',
      'call',
      'release',
    ]);
    expect(await h.metrics.snapshot()).toMatchObject({
      retries: 1,
      calls: { addTag: { server_error: 1, ok: 1 } },
    });
  });

  it('never retries a 400 and reports it as a final failure with its requestId', async () => {
    const h = harness([apiError(400), 'never']);
    await expect(h.run()).rejects.toMatchObject({ status: 400, requestId: 'req_400' });
    expect(h.log.filter((e) => e === 'call')).toHaveLength(1);
    expect(h.failures).toHaveLength(1);
    expect(await h.metrics.snapshot()).toMatchObject({ retries: 0, failures: { addTag: 1 } });
  });

  it('gives up after maxRetries on repeated timeouts', async () => {
    const timeout = new CrmTransportError('addTag', 'timeout', 'timed out');
    const h = harness([timeout, timeout, timeout, 'late'], 2);
    await expect(h.run()).rejects.toBe(timeout);
    expect(h.log.filter((e) => e === 'call')).toHaveLength(3);
    expect(h.log.filter((e) => e.startsWith('sleep:'))).toEqual(['sleep:125', 'sleep:250']);
  });

  it('pauses everyone for Retry-After on a 429 without spending a retry attempt', async () => {
    const h = harness([apiError(429, 3_000), 'ok'], 0);
    await expect(h.run()).resolves.toBe('ok');
    expect(h.log).toEqual([
      'acquire:bulk',
      'call',
      'release',
      'pause:3000',
      'acquire:bulk',
      'call',
      'release',
    ]);
    expect(await h.metrics.snapshot()).toMatchObject({ rateLimited429: 1, retries: 0 });
  });

  it('pauses one second when a 429 carries no Retry-After', async () => {
    const h = harness([apiError(429), 'ok']);
    await h.run();
    expect(h.log).toContain('pause:1000');
  });

  it('stops pausing when the CRM never stops answering 429', async () => {
    const h = harness(Array.from({ length: MAX_RATE_LIMIT_PAUSES + 5 }, () => apiError(429, 10)));
    await expect(h.run()).rejects.toMatchObject({ status: 429 });
    expect(h.log.filter((e) => e.startsWith('pause:'))).toHaveLength(MAX_RATE_LIMIT_PAUSES);
  });

  it('counts budget waits and tells the caller each wait', async () => {
    const h = harness([apiError(503), 'ok']);
    const waits: number[] = [];
    await callWithBudget(h.deps, 'addTag', { priority: 'bulk', onGranted: (ms) => waits.push(ms) }, h.fn);
    expect(waits).toEqual([5, 5]);
    expect(await h.metrics.snapshot()).toMatchObject({ budgetWaits: 2, budgetWaitMsTotal: 10 });
  });

  it.each([
    ['a Retry-After below the cap', 30_000, 30_000, 0],
    ['a Retry-After at the cap', 60_000, 60_000, 0],
    ['an hour-long Retry-After', 3_600_000, 60_000, 1],
  ])('honours %s up to CRM_MAX_PAUSE_MS, and reports a cap', async (_label, asked, paused, cappedCount) => {
    const h = harness([apiError(429, asked), 'ok']);
    await h.run();
    expect(h.log).toContain(`pause:${paused}`);
    expect(h.capped).toEqual(cappedCount ? [[asked, paused]] : []);
    expect((await h.metrics.snapshot()).pausesCapped).toBe(cappedCount);
  });

  it('gives every attempt of a call the same budget deadline', async () => {
    const h = harness([apiError(500), apiError(429, 1_000), 'ok']);
    await h.run();
    expect(h.deadlines).toEqual([120_000, 120_000, 120_000]);
  });

  it('fails retryably, unsent and without retrying, when the budget wait would pass its deadline', async () => {
    const h = harness(['never'], 3, ['timeout']);
    const err = await h.run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmTransportError);
    expect(err).toMatchObject({ kind: 'budget_timeout', retryable: true, operation: 'addTag' });
    expect(h.log).toEqual(['acquire:bulk']);
    expect(h.failures).toEqual([err]);
    expect(await h.metrics.snapshot()).toMatchObject({ budgetWaitTimeouts: 1, retries: 0, calls: {} });
  });
});

describe('callWithBudget with retryUnclear: false (writes that must happen at most once)', () => {
  const refused = () =>
    new CrmTransportError('sendMessage', 'connection', 'refused', {
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
    });
  const reset = () =>
    new CrmTransportError('sendMessage', 'connection', 'reset', {
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } }),
    });

  it.each<[string, Error, number]>([
    ['a 500 (the CRM may have applied it)', apiError(500), 1],
    ['a 502', apiError(502), 1],
    ['a timeout', new CrmTransportError('sendMessage', 'timeout', 'no answer'), 1],
    ['a connection reset after sending', reset(), 1],
    ['a refused connection (nothing sent)', refused(), 2],
  ])('on %s makes %i call(s)', async (_name, failure, calls) => {
    const h = harness([failure, 'ok']);
    const run = callWithBudget(h.deps, 'sendMessage', { priority: 'interactive', retryUnclear: false }, h.fn);
    if (calls === 1) await expect(run).rejects.toBe(failure);
    else await expect(run).resolves.toBe('ok');
    expect(h.log.filter((l) => l === 'call')).toHaveLength(calls);
  });

  it('still waits out a 429 and tries again: the CRM refused before handling', async () => {
    const h = harness([apiError(429, 1000), 'ok']);
    const run = callWithBudget(h.deps, 'sendMessage', { priority: 'interactive', retryUnclear: false }, h.fn);
    await expect(run).resolves.toBe('ok');
    expect(h.log).toContain('pause:1000');
  });
});
