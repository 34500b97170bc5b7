import { DataSource } from 'typeorm';
import { crm, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';

// Issue 34, goal 6: rule A adds tag vip; rule B on `added: vip` saw ["vip"] → ["vip"] and did not
// match, because the mirror learned the engine's write before the CRM's webhook arrived. The
// webhook of the engine's own write now compares with the contact before that write: A → B run
// once each, as `crm-rules graph` draws them (B's own write does not start B again). The test
// delivers the CRM's webhooks itself (no subscription), each after the engine has applied the
// write, which is the order the measurement saw.
describe('changes made by the engine are changes', () => {
  let h: Harness;
  let db: DataSource;

  beforeAll(async () => {
    h = await startHarness({
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET },
      rules: {
        'a.yaml': [
          'rule: make-vip',
          'on: contact.created',
          'if: { fact: contact.name, operator: startsWith, value: Chain }',
          'do:',
          '  - add-tag: vip',
          '',
        ].join('\n'),
        'b.yaml': [
          'rule: welcome-vip',
          'on: contact.updated',
          'if: { fact: contact.tags, operator: added, value: vip }',
          'do:',
          '  - add-tag: vip-welcomed',
          '',
        ].join('\n'),
      },
    });
    db = h.app.get(DataSource);
    // vip is in the demo data already.
    for (const name of ['vip', 'vip-welcomed'])
      expect([201, 409]).toContain((await crm(h, 'POST', '/v1/tags', { name })).status);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const runs = async (contactId: string) =>
    (await db.query(
      `SELECT rule_id, status FROM runs WHERE contact_id = $1 AND status <> 'not_matched' ORDER BY created_at`,
      [contactId],
    )) as { rule_id: string; status: string }[];
  const succeeded = (contactId: string, rule: string, n: number) =>
    eventually(async () => {
      const done = (await runs(contactId)).filter((r) => r.rule_id === rule && r.status === 'succeeded');
      return done.length >= n ? done : undefined;
    }, 60_000);
  /** The CRM's contact.updated webhook for the contact as it is now, delivered and processed. */
  const webhookNow = async (contactId: string) => {
    const contact = (await crm(h, 'GET', `/v1/contacts/${contactId}`)).body;
    const res = await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    expect(res.status).toBeLessThan(300);
    await eventually(async () => {
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM inbox_events WHERE contact_id = $1 AND processed_at IS NULL`,
        [contactId],
      );
      return n === 0;
    }, 30_000);
  };

  it('chained rules A → B run once each', async () => {
    const contact = await newContact(h, 'Chain Cleo');
    expect(
      (await deliver(h.url, JSON.stringify(contactEvent('contact.created', contact)))).status,
    ).toBeLessThan(300);
    await succeeded(contact.id, 'make-vip', 1);
    await webhookNow(contact.id); // A's write: tags [] → [vip]
    await succeeded(contact.id, 'welcome-vip', 1);
    await webhookNow(contact.id); // B's write: vip stays, vip-welcomed added: B does not run again
    const tags = ((await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags as { name: string }[])
      .map((t) => t.name)
      .sort();
    expect(tags).toEqual(['vip', 'vip-welcomed']);
    expect((await runs(contact.id)).map((r) => `${r.rule_id}:${r.status}`)).toEqual([
      'make-vip:succeeded',
      'welcome-vip:succeeded',
    ]);
  }, 120_000);
});
