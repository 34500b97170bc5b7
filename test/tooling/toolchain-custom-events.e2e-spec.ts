// Recorded events of a custom source (POST /hooks/<name>, rules/sources.yaml) replayed offline: the
// engine's export keeps them with the contact they resolved to, `diff` replays them through a
// changed rule on `custom.shop` and names the order the engine did not act on but the new rule
// would, and `forecast --events` counts the calls those rules make.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { signatureHeader } from '../../src/language/net/verify-signature';
import { parseEventsFile } from '../../src/tooling/toolchain/recorded-events';
import { KEYS } from '../support/demo-fixture';
import { ADMIN_TOKEN, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { request } from '../support/http';
import { cli, git } from '../support/cli';

const SECRET = 'whsec_shop_toolchain_0123456789abcdef0123';
const SOURCES = `sources:
  - name: shop
    secret: SOURCE_SECRET_SHOP_TOOLCHAIN
    event-id: /orderId
    schema:
      type: object
      required: [orderId, phone, total]
      properties: { orderId: { type: string }, phone: { type: string }, total: { type: number } }
    contact: { by: phone, from: /phone }
`;
const ruleOver = (total: number) => `rule: big-order-vip
on: custom.shop
if: { fact: event.data.total, operator: greaterThan, value: ${total} }
do:
  - add-tag: vip
`;

describe('crm-rules diff and forecast over recorded custom-source events', () => {
  let h: Harness;
  let repo: string;
  const savedKey = process.env.CRM_API_KEY;

  beforeAll(async () => {
    process.env.SOURCE_SECRET_SHOP_TOOLCHAIN = SECRET;
    h = await startHarness({
      rules: { 'sources.yaml': SOURCES, 'orders.yaml': ruleOver(100) },
      subscribe: false,
      env: { RULES_WATCH: 'false' },
    });
    repo = mkdtempSync(join(tmpdir(), 'crm-rules-custom-events-'));
  });
  afterAll(async () => {
    delete process.env.SOURCE_SECRET_SHOP_TOOLCHAIN;
    if (savedKey === undefined) delete process.env.CRM_API_KEY;
    else process.env.CRM_API_KEY = savedKey;
    await h?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  it('replays the orders: diff names the one a lower threshold gains, forecast counts their calls', async () => {
    const contact = await newContact(h, `Olga Orders ${Date.now()}`);
    const ids: string[] = [];
    for (const total of [50, 250]) {
      const body = JSON.stringify({ orderId: `o-${randomUUID()}`, phone: `+${contact.phone}`, total });
      const res = await request(`${h.url}/hooks/shop`, 'POST', {
        rawBody: body,
        headers: { 'x-service-signature': signatureHeader(SECRET, body) },
      });
      expect(res.status).toBe(200);
      ids.push(res.body.id);
    }
    // The engine acted on the order over 100 only; the other one's decision is on its own row.
    const db = h.app.get(DataSource);
    const acted = await eventually(async () => {
      const rows: { inbox_event_id: string; status: string }[] = await db.query(
        `SELECT inbox_event_id, status FROM runs WHERE rule_id = 'big-order-vip' ORDER BY created_at`,
      );
      const unmatched: { id: string; unmatched: unknown }[] = await db.query(
        `SELECT id, inbox_decision(unmatched, unmatched_set, unmatched_rules) AS unmatched FROM inbox_events WHERE id = ANY($1) AND unmatched_rules IS NOT NULL`,
        [ids],
      );
      const done = rows.filter((r) => r.status === 'succeeded');
      return done.length === 1 && unmatched.length === 1 ? { done, unmatched } : undefined;
    });
    expect(acted.done.map((r) => r.status)).toEqual(['succeeded']);
    expect(acted.unmatched[0].unmatched).toMatchObject({ rules: 1 });

    const exported = await fetch(`${h.url}/admin/events/export`, {
      headers: { 'x-admin-token': ADMIN_TOKEN },
    });
    expect(exported.status).toBe(200);
    const text = await exported.text();
    const recorded = parseEventsFile(text, 'events').filter((e) => e.type === 'custom.shop');
    expect(recorded.map((e) => [e.contactId, (e.data as { total: number }).total])).toEqual([
      [contact.id, 50],
      [contact.id, 250],
    ]);
    const events = join(repo, 'events.ndjson');
    writeFileSync(events, text);

    // The engine's rules committed; the working tree lowers the threshold to 20.
    const rules = join(repo, 'rules');
    mkdirSync(rules);
    writeFileSync(join(rules, 'sources.yaml'), SOURCES);
    writeFileSync(join(rules, 'orders.yaml'), ruleOver(100));
    git(repo, 'init', '-q');
    git(repo, 'add', 'rules');
    git(repo, 'commit', '-qm', 'the engine rules');
    writeFileSync(join(rules, 'orders.yaml'), ruleOver(20));
    const diff = await cli('diff', rules, '--base', 'HEAD', '--events', events, '--format', 'json');
    expect([diff.code, diff.err]).toEqual([0, '']);
    const [changed] = JSON.parse(diff.out).rules;
    expect(changed).toMatchObject({
      rule: 'big-order-vip',
      change: 'changed',
      lostContacts: [],
      gainedContacts: [contact.id],
    });
    // Exactly the order the engine did not act on.
    const notActed = acted.unmatched[0].id;
    const gainedEvent = recorded.find((e) => (e.data as { total: number }).total === 50)!;
    expect(changed.gained.examples).toEqual([
      expect.objectContaining({
        contactId: contact.id,
        eventId: gainedEvent.id,
        eventType: 'custom.shop',
        actions: ['add-tag "vip"'],
      }),
    ]);
    const [inbox] = await db.query(`SELECT substr(event_key, 4) AS id FROM inbox_events WHERE id = $1`, [
      notActed,
    ]);
    expect([ids.includes(notActed), inbox.id]).toEqual([true, gainedEvent.id]);

    // forecast --events: the working tree's rule tags on both orders (one call each).
    process.env.CRM_API_KEY = KEYS.full;
    const snapshot = await cli('snapshot', rules, '--url', h.sandboxUrl, '--contacts');
    expect([snapshot.code, snapshot.err]).toEqual([0, '']);
    const forecast = await cli('forecast', rules, '--events', events, '--format', 'json');
    expect([forecast.code, forecast.err]).toEqual([0, '']);
    const load = JSON.parse(forecast.out);
    const otherEvents = parseEventsFile(text, 'events').length - recorded.length;
    expect(otherEvents).toBe(0);
    expect(load.eventCallsPerMinute).toBe(2);
  });
});
