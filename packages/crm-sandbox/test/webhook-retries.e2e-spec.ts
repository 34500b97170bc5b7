// docs/CRM-API.md §6 delivery rules: 6 retries with exponential backoff keeping the
// event id, any 2xx is success, redirects not followed, timeouts, 12 consecutive failures
// disable the subscription; plus dropped deliveries from the control surface.
import { DEMO } from '../../../test/support/demo-fixture';
import { call, client } from '../../../test/support/http';
import { uniquePhone } from '../../../test/support/phones';
import {
  eventually,
  startReceiver,
  startTestSandbox,
  useWebhookSandbox,
  verifySignature,
} from './sandbox-test-kit';

jest.setTimeout(60_000);

const ctx = useWebhookSandbox();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const deliveries = async () =>
  (await call(ctx.sandbox, 'GET', '/_sandbox/deliveries', { key: null })).body.data as any[];

describe('retries', () => {
  it('retries a failed delivery 6 times with exponential backoff, same event id and body, fresh signature', async () => {
    const { secret } = await ctx.subscribe(['contact.created']);
    ctx.receiver.respondWith(() => ({ status: 500 }));
    await ctx.createContact();
    const all = await ctx.receiver.waitFor(7);
    await sleep(1500); // the base is 20 ms: a 7th retry would have come by now
    expect(ctx.receiver.received).toHaveLength(7);
    expect(new Set(all.map((d) => d.body.id)).size).toBe(1);
    expect(new Set(all.map((d) => d.rawBody)).size).toBe(1);
    for (const d of all)
      expect(verifySignature(secret, d.headers['x-service-signature'] as string, d.rawBody).valid).toBe(true);
    const gaps = all.slice(1).map((d, i) => d.at - all[i].at);
    // 20, 40, 80, 160, 320, 640 ms: each gap at least its nominal delay, and the last ones clearly growing.
    [20, 40, 80, 160, 320, 640].forEach((nominal, i) => expect(gaps[i]).toBeGreaterThanOrEqual(nominal - 5));
    expect(gaps[5]).toBeGreaterThan(gaps[3]);
    const log = (await deliveries()).filter((e) => e.type === 'contact.created');
    expect(log.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(log[6]).toMatchObject({ outcome: 'failed', status: 500, nextAttemptAt: null });
  });

  it.each([200, 202, 204, 299])('counts %i as success (no retry)', async (status) => {
    await ctx.subscribe(['contact.created']);
    ctx.receiver.respondWith(() => ({ status }));
    await ctx.createContact();
    await ctx.receiver.waitFor(1);
    await sleep(200);
    expect(ctx.receiver.received).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ outcome: 'delivered', status });
  });

  it('stops retrying once an attempt succeeds', async () => {
    await ctx.subscribe(['contact.created']);
    ctx.receiver.respondWith((_d, i) => ({ status: i < 2 ? 503 : 200 }));
    await ctx.createContact();
    await ctx.receiver.waitFor(3);
    await sleep(300);
    expect(ctx.receiver.received).toHaveLength(3);
  });

  it('does not follow redirects and counts them as failures', async () => {
    await ctx.subscribe(['contact.created']);
    const target = `${ctx.receiver.url}/elsewhere`;
    ctx.receiver.respondWith((_d, i) =>
      i === 0 ? { status: 302, headers: { location: target } } : { status: 200 },
    );
    await ctx.createContact();
    await ctx.receiver.waitFor(2);
    expect(ctx.receiver.received.map((d) => d.path)).toEqual(['/hooks', '/hooks']); // retried, never sent to the Location
    const log = await eventually(async () => ((await deliveries()).length >= 2 ? deliveries() : undefined));
    expect(log[0]).toMatchObject({ attempt: 1, outcome: 'failed', status: 302 });
    expect(log[0].error).toContain('redirect');
    expect(log[1]).toMatchObject({ attempt: 2, outcome: 'delivered' });
  });

  it('times out a slow receiver and retries', async () => {
    const quick = await startTestSandbox({ webhookRetryBaseMs: 20, webhookTimeoutMs: 200 });
    try {
      await client(quick).post('/v1/webhooks', { url: ctx.receiver.url, events: ['contact.created'] });
      ctx.receiver.respondWith((_d, i) => ({ status: 200, delayMs: i === 0 ? 600 : 0 }));
      await client(quick).post('/v1/contacts', { phone: uniquePhone() });
      await ctx.receiver.waitFor(2);
      const log = await eventually(async () => {
        const data = (await call(quick, 'GET', '/_sandbox/deliveries', { key: null })).body.data;
        return data.length >= 2 ? data : undefined;
      });
      expect(log[0]).toMatchObject({
        attempt: 1,
        outcome: 'failed',
        status: null,
        error: 'timeout after 200 ms',
      });
      expect(log[1]).toMatchObject({ attempt: 2, outcome: 'delivered' });
    } finally {
      await quick.close();
    }
  });

  it('counts an unreachable receiver as a failure', async () => {
    await ctx.receiver.close();
    await ctx.subscribe(['contact.created'], ctx.receiver.url);
    await ctx.createContact();
    const log = await eventually(async () => ((await deliveries()).length >= 2 ? deliveries() : undefined));
    expect(log[0]).toMatchObject({
      outcome: 'failed',
      status: null,
      error: expect.stringContaining('connection error'),
    });
    ctx.receiver = await startReceiver(); // afterEach closes it
  });
});

describe('disabling after consecutive failures', () => {
  const enabled = async () => (await ctx.api.get('/v1/webhooks')).body.data[0].enabled;

  it('12 consecutive failed deliveries disable the subscription; no more deliveries follow', async () => {
    await ctx.subscribe(['contact.created']);
    ctx.receiver.respondWith(() => ({ status: 500 }));
    await ctx.createContact(); // 7 attempts
    await ctx.createContact(); // 7 more attempts, but the 12th failure overall disables
    await ctx.receiver.waitFor(12);
    await sleep(1500);
    expect(ctx.receiver.received).toHaveLength(12);
    expect(await enabled()).toBe(false);
    const log = await deliveries();
    expect(log.filter((e) => e.subscriptionDisabled)).toHaveLength(1);
    expect(log[11].subscriptionDisabled).toBe(true);
    await ctx.createContact();
    await sleep(200);
    expect(ctx.receiver.received).toHaveLength(12);
  });

  it('11 consecutive failures do not disable it, and a success resets the count', async () => {
    await ctx.subscribe(['contact.created']);
    ctx.receiver.respondWith((_d, i) => ({ status: i < 11 ? 500 : 200 }));
    await ctx.createContact();
    await ctx.createContact();
    await ctx.receiver.waitFor(12);
    await sleep(300);
    expect(await enabled()).toBe(true);
    ctx.receiver.respondWith((_d, i) => ({ status: i < 23 ? 500 : 200 })); // 11 more failures after the success
    await ctx.createContact();
    await ctx.createContact();
    await ctx.receiver.waitFor(24);
    await sleep(300);
    expect(await enabled()).toBe(true);
    expect((await deliveries()).some((e) => e.subscriptionDisabled)).toBe(false);
  });
});

describe('dropped deliveries', () => {
  it('drops the next N deliveries of a kind without sending or retrying them', async () => {
    await ctx.subscribe(['contact.created', 'contact.updated']);
    await call(ctx.sandbox, 'POST', '/_sandbox/faults', {
      key: null,
      body: { kind: 'drop-delivery', count: 1, route: 'contact.created' },
    });
    await ctx.createContact();
    await ctx.api.post(`/v1/contacts/${DEMO.contacts.maria}/block`);
    await ctx.createContact();
    await ctx.receiver.waitFor(2);
    await sleep(200);
    expect(ctx.receiver.received.map((d) => d.body.type).sort()).toEqual([
      'contact.created',
      'contact.updated',
    ]);
    expect((await deliveries()).filter((e) => e.outcome === 'dropped')).toHaveLength(1);
  });
});
