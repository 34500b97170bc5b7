import { DataSource } from 'typeorm';
import { crm, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';

// Postgres is the commit point: while it is unreachable the intake must answer 503 (the CRM
// retries), never 2xx; once it is back, deliveries are accepted and processed.
describe('intake while Postgres is unreachable', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      proxyPostgres: true,
      rules: {
        'tag.yaml': ['rule: tag-updated', 'on: contact.updated', 'do:', '  - add-tag: vip', ''].join('\n'),
      },
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET },
    });
  });
  afterAll(async () => h?.stop());

  it('answers 503 while down, then accepts and processes after recovery', async () => {
    const contact = await newContact(h, 'Otto Outage');
    const body = JSON.stringify(contactEvent('contact.updated', contact));
    h.pgProxy!.down();
    const during = await deliver(h.url, body);
    expect(during.status).toBe(503);
    expect(JSON.stringify(during.json)).not.toContain('Otto');

    h.pgProxy!.up();
    const after = await eventually(
      async () => {
        const r = await deliver(h.url, body);
        return r.status === 200 ? r : undefined;
      },
      20000,
      250,
    );
    expect(after.json.duplicate).toBe(false);
    await eventually(async () => {
      const c = await crm(h, 'GET', `/v1/contacts/${contact.id}`);
      return c.body.tags?.some((t: { name: string }) => t.name === 'vip');
    });
    const db = h.app.get(DataSource);
    expect(
      (await db.query(`SELECT count(*)::int AS n FROM inbox_events WHERE id = $1`, [after.json.id]))[0].n,
    ).toBe(1);
  });
});
