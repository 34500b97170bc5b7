// docs/CRM-API.md §8: N requests per window per key (here 30 per 5 s), a strict sliding window,
// 429 rate_limit_exceeded with Retry-After and a message stating the limit and the seconds. 401s
// and 429s cost nothing; /_sandbox/ is exempt. The sandbox's clock is the test's (`now`): time
// moves only when a test moves it, so no burst can outlast a window and nothing sleeps.
import type { RunningSandbox } from '@crm-rules/crm-sandbox';
import { KEYS } from '../../../test/support/demo-fixture';
import { call, client } from '../../../test/support/http';
import { startTestSandbox } from './sandbox-test-kit';

const LIMIT = 30;
const WINDOW_MS = 5000;
let clock = Date.parse('2030-01-07T09:00:00.000Z');
const now = () => new Date(clock);
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS }, now });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  clock += 3_600_000; // every window of the previous test is long gone
  await call(sandbox, 'POST', '/_sandbox/reset', { key: null });
});

/** Sends n GETs (20 at a time) and returns their statuses. */
async function burst(n: number, key: string | null = KEYS.full, target = sandbox): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < n; sent += 20) {
    const batch = Array.from({ length: Math.min(20, n - sent) }, () =>
      call(target, 'GET', '/v1/channels', { key }),
    );
    statuses.push(...(await Promise.all(batch)).map((r) => r.status));
  }
  return statuses;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

it(`answers the request over the limit (the ${LIMIT + 1}st in a window) with 429 and an exact Retry-After`, async () => {
  const first = clock;
  expect((await call(sandbox, 'GET', '/v1/channels')).status).toBe(200);
  clock += 1000;
  expect(count(await burst(LIMIT - 1), 200)).toBe(LIMIT - 1);

  clock = first + 1500;
  const refused = await call(sandbox, 'GET', '/v1/channels');
  expect(refused.status).toBe(429);
  expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
  // The oldest admitted request (the first) leaves the window at first + WINDOW_MS: 3.5 s, rounded up.
  expect(refused.headers.get('retry-after')).toBe('4');
  expect(refused.body.error.message).toBe(
    `Rate limit of ${LIMIT} requests per ${WINDOW_MS / 1000} seconds exceeded; retry in 4 seconds`,
  );

  clock = first + WINDOW_MS - 1;
  expect((await call(sandbox, 'GET', '/v1/channels')).status).toBe(429);
  expect((await call(sandbox, 'GET', '/v1/channels')).headers.get('retry-after')).toBe('1');
  clock = first + WINDOW_MS; // the first leaves: one slot, and only one
  expect((await call(sandbox, 'GET', '/v1/channels')).status).toBe(200);
  expect((await call(sandbox, 'GET', '/v1/channels')).status).toBe(429);
});

it('does not count requests refused with 401', async () => {
  expect(count(await burst(50, 'sk_unknown'), 401)).toBe(50);
  expect(count(await burst(LIMIT), 200)).toBe(LIMIT);
  expect((await call(sandbox, 'GET', '/v1/channels')).status).toBe(429);
});

it('does not count requests refused with 429', async () => {
  const admitted = clock;
  expect(count(await burst(LIMIT), 200)).toBe(LIMIT);
  clock += 1000;
  expect(count(await burst(60), 429)).toBe(60);
  clock = admitted + WINDOW_MS; // every admitted request has left the window; the 429s never entered
  expect(count(await burst(LIMIT), 200)).toBe(LIMIT);
});

it('limits per API key, not per organization', async () => {
  await burst(LIMIT);
  expect((await call(sandbox, 'GET', '/v1/channels')).status).toBe(429);
  expect((await call(sandbox, 'GET', '/v1/channels', { key: KEYS.readonly })).status).toBe(200); // same org, other key
  expect((await call(sandbox, 'GET', '/v1/channels', { key: KEYS.other })).status).toBe(200);
});

it('uses a sliding window: slots free as old requests age out, never a fresh full window', async () => {
  const firstHalf = clock;
  expect(count(await burst(LIMIT / 2), 200)).toBe(LIMIT / 2);
  clock = firstHalf + WINDOW_MS / 2;
  expect(count(await burst(LIMIT / 2), 200)).toBe(LIMIT / 2);
  expect(await burst(1)).toEqual([429]);
  // The first half has left the window, the second has not: only the first half's slots are free.
  clock = firstHalf + WINDOW_MS;
  const statuses = await burst(LIMIT / 2 + 10);
  expect(count(statuses, 200)).toBe(LIMIT / 2);
  expect(count(statuses, 429)).toBe(10);
});

it('never rate limits the /_sandbox/ control surface, even for a key over its limit', async () => {
  expect(count(await burst(LIMIT), 200)).toBe(LIMIT);
  expect((await call(sandbox, 'GET', '/v1/channels')).status).toBe(429);
  // The same key, over its limit, on the control surface: answered, and not counted.
  for (let i = 0; i < 5; i++)
    expect((await call(sandbox, 'GET', '/_sandbox/counters', { key: KEYS.full })).status).toBe(200);
  expect((await call(sandbox, 'GET', '/_sandbox/counters', { key: null })).status).toBe(200);
  clock += WINDOW_MS; // a new window: control calls made in it cost the key nothing either
  for (let i = 0; i < LIMIT; i++)
    expect((await call(sandbox, 'GET', '/_sandbox/counters', { key: KEYS.full })).status).toBe(200);
  expect(count(await burst(LIMIT), 200)).toBe(LIMIT);
});

it('injects 429 storms with the requested Retry-After for N requests', async () => {
  await call(sandbox, 'POST', '/_sandbox/faults', {
    key: null,
    body: { kind: 'rate429', count: 2, retryAfterSec: 7 },
  });
  const a = await client(sandbox).get('/v1/channels');
  const b = await client(sandbox).get('/v1/tags');
  expect([a.status, b.status]).toEqual([429, 429]);
  expect(a.headers.get('retry-after')).toBe('7');
  expect(a.body.error.message).toContain('retry in 7 seconds');
  expect((await client(sandbox).get('/v1/channels')).status).toBe(200);
});
