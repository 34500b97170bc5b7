// Whose budget, and what happens when Redis forgets it: two API keys of one organization share
// one budget; a FLUSHALL (on a Redis of this test's own) closes the budget for one window instead
// of letting a second full window of calls through. The sandbox limits each key separately, so
// the proof is in the arrivals it records, not in its 429s.
import { maxInSlidingWindow } from '../../../bench/budget-stats';
import { startSandbox, type RunningSandbox } from '@crm-rules/crm-sandbox';
import { startPrivateRedis, type PrivateRedis } from '../../../bench/private-redis';
import { DEMO } from '../../support/demo-fixture';
import {
  deleteKeys,
  makeGateway,
  recordArrivals,
  testConfig,
  uniquePrefix,
  type GatewayKit,
} from './crm-test-kit';

jest.setTimeout(60_000);

const LIMIT = 10;
const WINDOW_MS = 2_000;
const DEMO_ORG = '0d000000-0000-4000-8000-000000000001';
const budgetEnv = {
  CRM_RATE_LIMIT: String(LIMIT),
  CRM_RATE_WINDOW_MS: String(WINDOW_MS),
  CRM_BULK_MIN_SHARE: '0',
};

describe('the budget belongs to the organization and survives a flush of Redis', () => {
  let sandbox: RunningSandbox;
  const kits: GatewayKit[] = [];
  const prefixes: string[] = [];

  beforeAll(async () => {
    // The sandbox's own limit is far above ours: any excess would show in the arrivals, not as 429s.
    sandbox = await startSandbox({ port: 0, rateLimit: { limit: 1_000, windowMs: WINDOW_MS } });
  });
  afterAll(async () => {
    for (const kit of kits) await kit.close();
    for (const prefix of prefixes) await deleteKeys(prefix);
    await sandbox?.close();
  });

  /** A gateway closed after the suite; `redisUrl`: one the caller closes itself. */
  function gateway(prefix: string, env: Record<string, string>, redisUrl?: string): GatewayKit {
    const config = testConfig(prefix, {
      CRM_BASE_URL: sandbox.url,
      ...budgetEnv,
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      ...env,
    });
    const kit = makeGateway(config);
    if (!redisUrl) kits.push(kit);
    return kit;
  }

  it('lets two keys of one organization (CRM_ORGANIZATION_ID) together make at most the limit per window', async () => {
    const prefix = uniquePrefix('org-budget');
    prefixes.push(prefix);
    const full = gateway(prefix, { CRM_API_KEY: 'sk_demo_full', CRM_ORGANIZATION_ID: DEMO_ORG });
    const contacts = gateway(prefix, { CRM_API_KEY: 'sk_demo_contacts', CRM_ORGANIZATION_ID: DEMO_ORG });
    const recorder = recordArrivals();
    try {
      await Promise.all(
        [full, contacts].flatMap((kit) =>
          Array.from({ length: LIMIT }, () =>
            kit.gateway.getContact(DEMO.contacts.maria, { priority: 'interactive' }),
          ),
        ),
      );
    } finally {
      recorder.stop();
    }
    const times = recorder.arrivals.map((a) => a.at);
    expect(times).toHaveLength(2 * LIMIT);
    expect(maxInSlidingWindow(times, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    // Both keys saw one shared state.
    expect((await full.gateway.budgetSnapshot()).usedInWindow).toBe(
      (await contacts.gateway.budgetSnapshot()).usedInWindow,
    );
  });

  it('keeps two keys apart when no organization is configured (each key its own budget)', async () => {
    const prefix = uniquePrefix('key-budget');
    prefixes.push(prefix);
    const full = gateway(prefix, { CRM_API_KEY: 'sk_demo_full' });
    const contacts = gateway(prefix, { CRM_API_KEY: 'sk_demo_contacts' });
    await full.gateway.getContact(DEMO.contacts.maria, { priority: 'interactive' });
    expect((await full.gateway.budgetSnapshot()).usedInWindow).toBe(1);
    expect((await contacts.gateway.budgetSnapshot()).usedInWindow).toBe(0);
  });

  describe('with a Redis of its own', () => {
    let redis: PrivateRedis;
    beforeAll(async () => {
      redis = await startPrivateRedis();
    });
    afterAll(async () => redis?.stop());

    it('after FLUSHALL starts cold: no window ever holds more than the limit, and it says so', async () => {
      const prefix = uniquePrefix('cold-budget');
      const kit = gateway(prefix, { CRM_API_KEY: 'sk_demo_full', CRM_BUDGET_COLD_START: 'true' }, redis.url);
      const recorder = recordArrivals();
      const call = () => kit.gateway.getContact(DEMO.contacts.john, { priority: 'interactive' });
      try {
        // A first start is cold too: the first window stays closed, then the limit is used at once.
        await Promise.all(Array.from({ length: LIMIT }, call));
        await redis.flushall();
        await Promise.all(Array.from({ length: LIMIT }, call));
      } finally {
        recorder.stop();
      }
      const { coldStarts } = await kit.gateway.counters();
      await kit.close(); // before its Redis goes away
      const times = recorder.arrivals.map((a) => a.at);
      expect(times).toHaveLength(2 * LIMIT);
      expect(maxInSlidingWindow(times, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
      // The second batch came one whole window after the first, not right after the flush.
      expect(times[LIMIT] - times[LIMIT - 1]).toBeGreaterThanOrEqual(WINDOW_MS);
      expect(coldStarts).toBe(2);
    });
  });
});
