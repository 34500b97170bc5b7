// Custom event sources end to end (real Postgres, Redis and the sandbox CRM over HTTP): a signed
// delivery to POST /hooks/<source> starts a rule that writes to the CRM; every refusal (unknown
// source, unset secret, bad signature, payload failing its schema) keeps nothing; a contact that
// cannot be found is a visible, final outcome of the event.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { signatureHeader } from '../../src/language/net/verify-signature';
import { admin, crm, eventually, newContact, Harness, startHarness } from '../support/engine-harness';
import { consoleLogIn } from '../support/console-client';
import { request } from '../support/http';
import { uniquePhone } from '../support/phones';

const SECRET = 'whsec_shop_e2e_0123456789abcdef0123456789';
const SOURCES = `sources:
  - name: shop
    secret: SOURCE_SECRET_SHOP_E2E
    event-id: /orderId
    schema:
      type: object
      required: [orderId, phone, total]
      properties:
        orderId: { type: string }
        phone: { type: string }
        total: { type: number }
    contact: { by: phone, from: /phone }
  - name: leads
    secret: SOURCE_SECRET_SHOP_E2E
    schema:
      type: object
      required: [phone]
      properties: { phone: { type: string }, name: { type: string } }
    contact: { by: phone, from: /phone, create: true, name-from: /name }
  - name: erp
    secret: SOURCE_SECRET_ERP_E2E_UNSET
    schema: { type: object }
    contact: { by: email, from: /email }
`;
const RULE = `rule: big-order-vip
on: custom.shop
if: { fact: event.data.total, operator: greaterThan, value: 100 }
do:
  - add-tag: vip
---
rule: new-lead
on: custom.leads
do:
  - add-tag: customer
`;

async function post(
  h: Harness,
  source: string,
  body: string,
  header: string | null = signatureHeader(SECRET, body),
) {
  const res = await request(`${h.url}/hooks/${source}`, 'POST', {
    rawBody: body,
    headers: header === null ? {} : { 'x-service-signature': header },
  });
  return { status: res.status, json: res.body as Record<string, unknown> };
}

describe('custom event sources: POST /hooks/<source>', () => {
  let h: Harness;
  let db: DataSource;
  const inboxCount = async () => Number((await db.query(`SELECT count(*) AS n FROM inbox_events`))[0].n);

  beforeAll(async () => {
    process.env.SOURCE_SECRET_SHOP_E2E = SECRET;
    delete process.env.SOURCE_SECRET_ERP_E2E_UNSET;
    h = await startHarness({ rules: { 'sources.yaml': SOURCES, 'orders.yaml': RULE }, subscribe: false });
    db = h.app.get(DataSource);
  });
  afterAll(async () => {
    delete process.env.SOURCE_SECRET_SHOP_E2E;
    await h?.stop();
  });

  it('runs the rule for the contact the payload names, and writes to the CRM', async () => {
    const contact = await newContact(h, 'Cleo Custom');
    const body = JSON.stringify({ orderId: `o-${randomUUID()}`, phone: `+${contact.phone}`, total: 250 });
    const first = await post(h, 'shop', body);
    expect(first).toEqual({
      status: 200,
      json: expect.objectContaining({ received: true, duplicate: false }),
    });
    // The same order again (the sender's retry): one event.
    expect((await post(h, 'shop', body)).json).toEqual(
      expect.objectContaining({ duplicate: true, id: first.json.id }),
    );
    const run = await eventually(async () => {
      const [row] = await db.query(
        `SELECT r.status, e.type, r.contact_id AS "contactId" FROM runs r JOIN inbox_events e ON e.id = r.inbox_event_id WHERE r.rule_id = 'big-order-vip' AND r.inbox_event_id = $1`,
        [first.json.id],
      );
      return row?.status === 'succeeded' ? row : undefined;
    });
    expect(run).toEqual({ status: 'succeeded', type: 'custom.shop', contactId: contact.id });
    const after = await crm(h, 'GET', `/v1/contacts/${contact.id}`);
    expect(after.body.tags.map((t: { name: string }) => t.name)).toContain('vip');
  });

  it('creates the contact when the source says so, once, and acts on it', async () => {
    const phone = uniquePhone();
    const body = JSON.stringify({ phone, name: 'Lea Lead' });
    const res = await post(h, 'leads', body, signatureHeader(SECRET, body));
    expect(res.status).toBe(200);
    const event = await eventually(async () => {
      const got = await admin(h, 'GET', `/admin/events/${res.json.id}`);
      return got.body?.status === 'processed' ? got.body : undefined;
    });
    expect(event.outcome).toBeNull();
    const found = await crm(h, 'GET', `/v1/contacts?search=${phone}`);
    expect(found.body.data).toEqual([expect.objectContaining({ phone, name: 'Lea Lead' })]);
    await eventually(async () => {
      const contact = await crm(h, 'GET', `/v1/contacts/${found.body.data[0].id}`);
      return contact.body.tags.some((t: { name: string }) => t.name === 'customer');
    });
  });

  it('deduplicates by the body when the source names no event id, whatever X-Event-Id says', async () => {
    const body = JSON.stringify({ phone: uniquePhone() });
    let n = 0;
    const send = () =>
      request(`${h.url}/hooks/leads`, 'POST', {
        rawBody: body,
        headers: { 'x-service-signature': signatureHeader(SECRET, body), 'x-event-id': `lead-${++n}` },
      });
    const [a, b] = [await send(), await send()];
    expect([a.body.duplicate, b.body.duplicate]).toEqual([false, true]);
    expect(b.body.id).toBe(a.body.id);
  });

  it('records a contact that cannot be found on the event, with its reason, and acts on nobody', async () => {
    const body = JSON.stringify({ orderId: `o-${randomUUID()}`, phone: '+99 000 000 0001', total: 500 });
    const res = await post(h, 'shop', body);
    expect(res.status).toBe(200);
    const event = await eventually(async () => {
      const got = await admin(h, 'GET', `/admin/events/${res.json.id}`);
      return got.body?.status === 'processed' ? got.body : undefined;
    });
    expect(event).toEqual(
      expect.objectContaining({
        outcome: 'contact_not_found',
        lastError: 'no CRM contact has phone 990000000001',
      }),
    );
    const runs = await db.query(`SELECT 1 FROM runs WHERE inbox_event_id = $1`, [res.json.id]);
    expect(runs).toEqual([]);
    // The console lists it with its reason (failures page, events without a contact).
    const page = await (await consoleLogIn(h.url)).get('/console/failures');
    const row = page.html.slice(page.html.indexOf(`data-event="${String(res.json.id)}"`));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain('no CRM contact has phone 990000000001');
    // Once the contact exists, a replay of the event finds it and the rule acts.
    const late = await newContact(h, 'Late Larry', { phone: '990000000001' });
    const replay = await admin(h, 'POST', `/admin/events/${String(res.json.id)}/replay`);
    expect(replay.status).toBeLessThan(300);
    await eventually(async () => {
      const contact = await crm(h, 'GET', `/v1/contacts/${late.id}`);
      return contact.body.tags.some((t: { name: string }) => t.name === 'vip');
    });
  });

  it.each([
    // Answered like a bad signature, so source names cannot be enumerated (the log tells them apart).
    ['an unknown source', 'shoop', 'x', undefined, 401, 'invalid_signature'],
    ['a source whose secret variable is unset', 'erp', '{}', undefined, 401, 'invalid_signature'],
    [
      'a bad signature',
      'shop',
      '{"orderId":"a","phone":"1","total":1}',
      signatureHeader('wrong-secret', '{}'),
      401,
      'invalid_signature',
    ],
    ['no signature', 'shop', '{"orderId":"a","phone":"1","total":1}', null, 401, 'invalid_signature'],
    [
      'a payload failing the schema',
      'shop',
      '{"orderId":"a","phone":"1","total":"lots"}',
      undefined,
      400,
      'invalid_payload',
    ],
    ['a body that is not JSON', 'shop', '{"orderId":', undefined, 400, 'invalid_json'],
  ])('refuses %s and keeps nothing', async (_what, source, body, header, status, code) => {
    const before = await inboxCount();
    const res = await post(h, source, body, header === undefined ? signatureHeader(SECRET, body) : header);
    expect(res).toEqual({ status, json: { error: expect.objectContaining({ code }) } });
    expect(await inboxCount()).toBe(before);
  });
});
