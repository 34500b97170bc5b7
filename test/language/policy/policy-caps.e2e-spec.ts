import { DataSource } from 'typeorm';
import { DEMO } from '../../support/demo-fixture';
import { api } from '../../support/http';
import { admin, crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { ensureBuilt, WorkerProcesses } from '../../support/worker-process';
import { consoleCookie } from '../../operator/console/console-login';

const MESSAGE_ROUTE = 'POST /v1/messages';
const CONTACTS = 4;

const rule = (id: string) =>
  [
    `rule: ${id}`,
    'on: contact.created',
    `if: { fact: contact.name, operator: startsWith, value: Capped }`,
    'do:',
    `  - send-message: { text: "${id} for {{contact.name}}", channel: Main WhatsApp }`,
    '',
  ].join('\n');

// Issue 24: three rules message one contact within a minute. The policy caps customer messages at
// two a day across all rules, counted from the ledger by two worker processes at once: each
// contact gets exactly two, and the third send is recorded `policy_cap`. Then Redis loses every key
// and a fourth message is still refused: the count lives in Postgres.
describe('messaging policy caps across two worker processes', () => {
  let h: Harness;
  const workers = new WorkerProcesses();
  let againTagId: string;

  beforeAll(async () => {
    ensureBuilt();
    h = await startHarness({
      rules: {
        'policy.yaml': 'caps: [{ max: 2, per: 1d }, { max: 5, per: 7d }]\nover-cap: skip\n',
        'welcome.yaml': rule('welcome'),
        'intro.yaml': rule('intro'),
        'offer.yaml': rule('offer'),
        // Phase two: a fourth message once the contact is tagged `again` (after Redis lost its data).
        'again.yaml': [
          'rule: again',
          'on: contact.updated',
          'if: { fact: contact.tags, operator: hasTag, value: again }',
          'once: per-contact',
          'do:',
          '  - send-message: { text: "again", channel: Main WhatsApp }',
          '',
        ].join('\n'),
      },
      env: { ROLE: 'api' },
    });
    await Promise.all([workers.start(h).ready, workers.start(h).ready]);
    const tag = await crm(h, 'POST', '/v1/tags', { name: 'again' });
    expect(tag.status).toBe(201);
    againTagId = tag.body.id;
  }, 120_000);
  afterAll(async () => {
    workers.killAll();
    await h?.stop();
  });

  it('delivers the cap to each contact and records the rest policy_cap', async () => {
    const counters = async () =>
      (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[MESSAGE_ROUTE] ?? 0;
    const before = await counters();
    const contacts = await Promise.all(
      Array.from({ length: CONTACTS }, (_, i) =>
        newContact(h, `Capped ${i}`, { assigneeId: DEMO.members.ana }),
      ),
    );
    const ids = contacts.map((c) => c.id);
    const db = h.app.get(DataSource);
    const actions = await eventually(async () => {
      const rows: { contact_id: string; rule_id: string; status: string; reason: string | null }[] =
        await db.query(
          `SELECT r.contact_id, r.rule_id, a.status, a.reason FROM runs r JOIN action_results a ON a.run_id = r.id
          WHERE r.contact_id = ANY($1::text[]) AND r.status IN ('succeeded', 'failed', 'dead', 'cancelled')`,
          [ids],
        );
      return rows.length === CONTACTS * 3 ? rows : undefined;
    }, 90_000);
    for (const id of ids) {
      const mine = actions.filter((a) => a.contact_id === id);
      expect(mine.filter((a) => a.status === 'succeeded')).toHaveLength(2);
      expect(mine.filter((a) => a.status === 'skipped').map((a) => a.reason)).toEqual(['policy_cap']);
    }
    expect((await counters()) - before).toBe(CONTACTS * 2);

    // The console: the skip with the policy's words on the contact timeline, and the count per period.
    const cookie = await consoleCookie(h.url);
    const page = await (await fetch(`${h.url}/console/contacts/${ids[0]}`, { headers: { cookie } })).text();
    expect(page).toContain('data-kind="policy"');
    expect(page).toContain('policy_cap: 2 message(s) per 1d reached');
    expect(page).toContain('customer messages: 2 in the last 1d (cap 2), 2 in the last 7d (cap 5)');
  }, 120_000);

  it('still holds after Redis lost every key: the count is in Postgres', async () => {
    const counters = async () =>
      (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[MESSAGE_ROUTE] ?? 0;
    const db = h.app.get(DataSource);
    const [{ id }] = await db.query(`SELECT contact_id AS id FROM runs WHERE rule_id = 'welcome' LIMIT 1`);
    const keys = await h.redis.keys(`${h.config.redis.prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await h.redis.del(...keys);
    const before = await counters();
    expect((await crm(h, 'PATCH', `/v1/contacts/${id}`, { tagIds: [againTagId] })).status).toBe(200);
    const skipped = await eventually(async () => {
      const [row] = await db.query(
        `SELECT a.status, a.reason FROM runs r JOIN action_results a ON a.run_id = r.id
          WHERE r.rule_id = 'again' AND r.contact_id = $1 AND a.status <> 'pending'`,
        [id],
      );
      return row;
    }, 60_000);
    expect(skipped).toEqual({ status: 'skipped', reason: 'policy_cap' });
    // The policy in force, as operators see it.
    expect((await admin(h, 'GET', '/admin/rules')).body.policy).toMatchObject({
      caps: [
        { max: 2, per: '1d' },
        { max: 5, per: '7d' },
      ],
      overCap: 'skip',
    });
    expect((await counters()) - before).toBe(0);
  }, 120_000);
});
