// Two gateways (two "processes": own Redis connection, own local queues) share one budget
// against the sandbox's strict sliding-window limit, over HTTP, with real Redis.
import { maxInSlidingWindow } from '../../../bench/budget-stats';
import { DEMO } from '../../support/demo-fixture';
import { recordArrivals, useCrmSuite, type GatewayKit } from './crm-test-kit';

// jest.config.js sets testTimeout per project, which jest ignores: set it here.
jest.setTimeout(60_000);

const LIMIT = 20;
const WINDOW_MS = 2_000;

describe('shared CRM budget (two gateways, one Redis, the sandbox)', () => {
  const crm = useCrmSuite(
    'crm-budget',
    { limit: LIMIT, windowMs: WINDOW_MS },
    { CRM_RATE_LIMIT: String(LIMIT), CRM_RATE_WINDOW_MS: String(WINDOW_MS), CRM_BULK_MIN_SHARE: '0.2' },
  );
  let recorder: ReturnType<typeof recordArrivals>;

  beforeEach(() => {
    recorder = recordArrivals();
  });
  afterEach(() => recorder.stop());

  it('never lets any sliding window exceed the limit, with no 429, across two gateways', async () => {
    const calls = [crm.a, crm.b].flatMap((kit) =>
      Array.from({ length: 30 }, (_, i) =>
        kit.gateway.addTag(DEMO.contacts.maria, DEMO.tags.vip, {
          priority: i % 6 === 0 ? 'interactive' : 'bulk',
        }),
      ),
    );
    const contacts = await Promise.all(calls);

    expect(contacts.every((c) => c.tags.some((t) => t.id === DEMO.tags.vip))).toBe(true);
    expect(recorder.arrivals).toHaveLength(60);
    expect(
      maxInSlidingWindow(
        recorder.arrivals.map((r) => r.at),
        WINDOW_MS,
      ),
    ).toBeLessThanOrEqual(LIMIT);
    expect(
      (await crm.a.gateway.counters()).rateLimited429 + (await crm.b.gateway.counters()).rateLimited429,
    ).toBe(0);
    // 60 calls at 20 per window cannot finish before the third window opens.
    const span = recorder.arrivals[59].at - recorder.arrivals[0].at;
    expect(span).toBeGreaterThan(2 * WINDOW_MS);
  });

  it('lets interactive calls overtake a saturating bulk backlog of another process', async () => {
    await waitForFreshWindow(crm.a);
    const done: { kind: string; at: number }[] = [];
    const track = (kind: string) => () => void done.push({ kind, at: performance.now() });
    const bulk = Array.from({ length: 30 }, () =>
      crm.a.gateway.getContact(DEMO.contacts.john, { priority: 'bulk' }).then(track('bulk')),
    );
    // Let bulk fill the window, then queue interactive work in the other process.
    while ((await crm.a.gateway.budgetSnapshot()).usedInWindow < LIMIT) await sleep(50);
    const snapshot = await crm.b.gateway.budgetSnapshot();
    expect(snapshot.waiting.bulk).toBeGreaterThan(0);
    expect(await crm.b.gateway.estimateWaitMs('bulk')).toBeGreaterThan(
      await crm.b.gateway.estimateWaitMs('interactive'),
    );

    const queuedAt = performance.now();
    const interactive = Array.from({ length: 4 }, () =>
      crm.b.gateway.getContact(DEMO.contacts.maria, { priority: 'interactive' }).then(track('interactive')),
    );
    await Promise.all([...bulk, ...interactive]);

    const lastInteractive = Math.max(...done.filter((d) => d.kind === 'interactive').map((d) => d.at));
    const bulkMeanwhile = done.filter((d) => d.kind === 'bulk' && d.at > queuedAt && d.at < lastInteractive);
    expect(bulkMeanwhile.length).toBeLessThanOrEqual(1); // at most the one already on the wire
    expect(
      maxInSlidingWindow(
        recorder.arrivals.map((r) => r.at),
        WINDOW_MS,
      ),
    ).toBeLessThanOrEqual(LIMIT);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Start from an empty log so the test sees a whole window. */
async function waitForFreshWindow(kit: GatewayKit): Promise<void> {
  while ((await kit.gateway.budgetSnapshot()).usedInWindow > 0) await sleep(100);
}
