// A rule's `limit` after Redis lost its data: the engine (real Postgres, Redis and sandbox) used
// up the period's allowance, every key of the test's Redis prefix is deleted (the counter, the
// queues, the CRM budget's state), and the next events of the same period send nothing more.
import { DataSource } from 'typeorm';
import { crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';

// 52 weeks: a period boundary cannot fall inside the test (periods are aligned to the epoch).
const RULES = {
  'limited.yaml': [
    'rule: limited-vip',
    'on: contact.updated',
    'limit: { max: 2, per: 52w, over: skip }',
    'do:',
    '  - add-tag: vip',
    '',
  ].join('\n'),
};

describe('rule limit after Redis lost its data', () => {
  let h: Harness;
  let db: DataSource;
  beforeAll(async () => {
    h = await startHarness({
      rules: RULES,
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET },
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  /** Delivers contact.updated for a new contact; resolves with its run once the run has ended. */
  async function trigger(
    name: string,
  ): Promise<{ contactId: string; status: string; reason: string | null }> {
    const contact = await newContact(h, name);
    const reply = await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    expect(reply.status).toBe(200);
    const [run] = await eventually(async () => {
      const rows = await db.query(
        `SELECT status, reason FROM runs WHERE inbox_event_id = $1 AND status IN ('succeeded', 'cancelled')`,
        [reply.json.id],
      );
      return rows.length ? rows : undefined;
    });
    return { contactId: contact.id as string, ...run };
  }
  const tags = async (contactId: string) =>
    ((await crm(h, 'GET', `/v1/contacts/${contactId}`)).body.tags as { name: string }[]).map((t) => t.name);

  it('rebuilds the used-up counter from the ledger: no further run of the period sends anything', async () => {
    const first = [await trigger('Lim One'), await trigger('Lim Two')];
    expect(first.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect((await trigger('Lim Three')).reason).toBe('rate_limited');

    const prefix = h.config.redis.prefix;
    const keys = await h.redis.keys(`${prefix}:*`);
    expect(keys.some((k) => k.includes(':rule-limit:'))).toBe(true);
    await h.redis.del(...keys);
    expect(await h.redis.keys(`${prefix}:*rule-limit*`)).toEqual([]);

    const after = [await trigger('Lim Four'), await trigger('Lim Five')];
    expect(after.map((r) => [r.status, r.reason])).toEqual([
      ['cancelled', 'rate_limited'],
      ['cancelled', 'rate_limited'],
    ]);
    for (const r of after) expect(await tags(r.contactId)).not.toContain('vip');
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM runs WHERE rule_id = 'limited-vip' AND status = 'succeeded'`,
    );
    expect(n).toBe(2);
    // The counter is back in Redis, seeded from the ledger's 2.
    expect(await h.redis.keys(`${prefix}:rule-limit:*`)).toHaveLength(1);
  });
});
