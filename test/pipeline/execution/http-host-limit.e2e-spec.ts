// A host's rate limit defers http-requests instead of failing them (issue 30: with
// HTTP_ACTION_HOST_RATE_LIMIT=5 and 12 events, 5 were delivered and 7 ended `dead host_limited`).
// Past the limit a run sleeps like a closed window: recorded `waiting` (for: host), a delayed job
// wakes it. The minute passes by the engine's clock (ENGINE_CLOCK, moved forward) and the host's
// window key in Redis (removed, as its expiry would), then the delayed jobs are promoted: no real
// minute is waited. Every call arrives, each key exactly once, none dead.
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../src/runtime/config/app-config';
import { ENGINE_CLOCK, type EngineClock } from '../../../src/runtime/config/engine-clock';
import { ACTIONS_QUEUE } from '../../../src/runtime/queues/queue-jobs';
import { eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { startReceiver, type Receiver } from '../../support/http-receiver';

jest.setTimeout(180_000);

const SIGNING_SECRET = 'engine-signing-secret-0123456789abcdef';
const CALLS = 12;
const LIMIT = 5;

describe('http-request past a host rate limit', () => {
  let h: Harness;
  let db: DataSource;
  let erp: Receiver;

  beforeAll(async () => {
    erp = await startReceiver('127.0.0.2', SIGNING_SECRET, {
      '/orders/': () => ({ status: 200, json: { ok: true } }),
    });
    h = await startHarness({
      rules: {
        'limited.yaml': `
rule: limited
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Limited" }
do:
  - http-request: { name: notify, url: "${erp.url}/orders/{{contact.id}}", body: { contactId: "{{contact.id}}" } }
`,
      },
      env: {
        HTTP_ACTION_ALLOWED_HOSTS: '127.0.0.2',
        HTTP_ACTION_ALLOW_PRIVATE: '127.0.0.2/32',
        HTTP_ACTION_SIGNING_SECRET: SIGNING_SECRET,
        HTTP_ACTION_HOST_RATE_LIMIT: String(LIMIT),
        HTTP_ACTION_HOST_RATE_WINDOW_MS: '60000',
      },
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => {
    await h?.stop();
    await erp?.close();
  });

  const rows = (): Promise<{ run_status: string; status: string; error_code: string | null }[]> =>
    db.query(
      `SELECT r.status AS run_status, a.status, a.error_code FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.rule_id = 'limited'`,
    );

  it('12 outbound calls to a host limited to 5 a minute all arrive, each exactly once', async () => {
    // The engine's clock runs with real time, plus whatever the test adds (a minute passing).
    let offset = 0;
    const clock = jest
      .spyOn(h.app.get<EngineClock>(ENGINE_CLOCK), 'now')
      .mockImplementation(() => new Date(Date.now() + offset));
    const windowKey = `${h.app.get<AppConfig>(APP_CONFIG).redis.prefix}:egress:127.0.0.2:window`;
    const actions = h.app.get<Queue>(getQueueToken(ACTIONS_QUEUE));
    try {
      for (let i = 0; i < CALLS; i++) await newContact(h, `Limited ${i}`);
      // The first window: 5 sent, the 7 others wait for the host (none failed, none dead).
      await eventually(async () => {
        const r = await rows();
        const waiting = r.filter((x) => x.run_status === 'waiting');
        return r.length === CALLS && waiting.length === CALLS - LIMIT ? r : undefined;
      }, 60_000);
      expect(erp.requests).toHaveLength(LIMIT);
      const deferred = (await rows()).filter((x) => x.run_status === 'waiting');
      expect(deferred.every((x) => x.status === 'pending' && x.error_code === 'host_limited')).toBe(true);

      // A minute passes, window by window, until every run is done.
      for (let window = 0; window < 4 && erp.requests.length < CALLS; window++) {
        offset += 61_000;
        await h.redis.del(windowKey);
        const expected = Math.min(CALLS, LIMIT * (window + 2));
        // A run's wake job is added after its `waiting` mark commits: one seen waiting may not have
        // its delayed job yet, so each poll promotes whatever is delayed by then.
        await eventually(async () => {
          for (const job of await actions.getDelayed()) await job.promote();
          return erp.requests.length >= expected ? true : undefined;
        }, 60_000);
      }
      const done = await eventually(async () => {
        const r = await rows();
        return r.every((x) => x.run_status === 'succeeded') ? r : undefined;
      }, 60_000);
      expect(done.map((x) => x.status)).toEqual(new Array(CALLS).fill('succeeded'));
      const keys = erp.requests.map((r) => r.key);
      expect(keys).toHaveLength(CALLS);
      expect(new Set(keys).size).toBe(CALLS);
      expect([...erp.applied.values()]).toEqual(new Array(CALLS).fill(1));
    } finally {
      clock.mockRestore();
    }
  });
});
