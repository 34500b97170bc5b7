import { DataSource } from 'typeorm';
import { ReconcilerService } from '../../src/pipeline/events-worker/reconciler.service';
import {
  admin,
  ADMIN_TOKEN,
  crm,
  eventually,
  Harness,
  newContact,
  startHarness,
} from '../support/engine-harness';
import { api } from '../support/http';
import { contactEvent, deliver, messageEvent, TEST_WEBHOOK_SECRET } from '../support/webhooks';

const RULES = {
  'vip.yaml': ['rule: vip-on-update', 'on: contact.updated', 'do:', '  - add-tag: vip', ''].join('\n'),
  'reply.yaml': ['rule: tag-on-message', 'on: message.created', 'do:', '  - add-tag: customer', ''].join(
    '\n',
  ),
};
const READ_CONTACT = 'GET /v1/contacts/:contactId';
const MAX_ATTEMPTS = 3;

const readCalls = async (h: Harness) =>
  ((await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[READ_CONTACT] ?? 0) as number;
// Every stored event ends: processed (perhaps with an outcome saying what was odd about it) or
// failed after a bounded number of attempts, listed and replayable. Nothing loops.
describe('event lifecycle', () => {
  let h: Harness;
  let db: DataSource;
  const stored = async (id: string) =>
    (await db.query(`SELECT status, outcome, attempts, last_error FROM inbox_events WHERE id = $1`, [id]))[0];

  beforeAll(async () => {
    h = await startHarness({
      rules: RULES,
      subscribe: false,
      env: {
        CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        CRM_MAX_RETRIES: '0',
        EVENT_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
        RULES_WATCH: 'false',
      },
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());
  afterEach(async () => api(h.sandboxUrl, 'DELETE', '/_sandbox/faults'));

  it('matches a contact event whose payload lacks createdAt, skipping only the mirror update', async () => {
    const contact = await newContact(h, 'No Date');
    const { createdAt: _dropped, ...withoutCreatedAt } = contact;
    const reply = await deliver(h.url, JSON.stringify(contactEvent('contact.updated', withoutCreatedAt)));
    expect(reply.status).toBe(200);
    const event = await eventually(async () => {
      const row = await stored(reply.json.id);
      return row?.status !== 'pending' ? row : undefined;
    });
    expect(event).toEqual({
      status: 'processed',
      outcome: 'mirror_skipped',
      attempts: 0,
      last_error: `contact mirror not updated: contact ${contact.id}: createdAt is not a date (undefined)`,
    });
    // Matched with what it has: the rule acted.
    await eventually(async () =>
      (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags.some(
        (t: { name: string }) => t.name === 'vip',
      ),
    );
    // The mirror's copy comes from the CRM's answer to the tag write (complete, tagged), never
    // from the payload without createdAt.
    const mirrored = await eventually(async () => {
      const [row] = await db.query(`SELECT raw FROM contact_mirror WHERE id = $1`, [contact.id]);
      return row?.raw;
    });
    expect(mirrored.createdAt).toBe(contact.createdAt);
    expect(mirrored.tags.map((t: { name: string }) => t.name)).toContain('vip');
  });

  it('ends a message event for a deleted contact as processed, contact_gone, after one CRM read', async () => {
    const contact = await newContact(h, 'Gone Gina');
    expect((await crm(h, 'DELETE', `/v1/contacts/${contact.id}`)).status).toBe(200);
    const before = await readCalls(h);
    const reply = await deliver(h.url, JSON.stringify(messageEvent(contact.id)));
    const event = await eventually(async () => {
      const row = await stored(reply.json.id);
      return row?.status !== 'pending' ? row : undefined;
    });
    expect(event).toEqual({ status: 'processed', outcome: 'contact_gone', attempts: 0, last_error: null });
    expect(await readCalls(h)).toBe(before + 1);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM runs WHERE inbox_event_id = $1`, [
      reply.json.id,
    ]);
    expect(n).toBe(0);
    // The reconciler leaves it alone: no further CRM call.
    await h.app.get(ReconcilerService).reconcile(0);
    expect((await stored(reply.json.id)).status).toBe('processed');
    expect(await readCalls(h)).toBe(before + 1);
  });

  it('fails an event after EVENT_MAX_ATTEMPTS, lists it, never re-adds it, and replays it on request', async () => {
    const contact = await newContact(h, 'Flaky Flo');
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'error500',
      count: 1000,
      route: READ_CONTACT,
    });
    const before = await readCalls(h);
    const reply = await deliver(h.url, JSON.stringify(messageEvent(contact.id)));
    const event = await eventually(
      async () => {
        const row = await stored(reply.json.id);
        return row?.status === 'failed' ? row : undefined;
      },
      30000,
      100,
    );
    expect(event).toEqual(
      expect.objectContaining({
        attempts: MAX_ATTEMPTS,
        outcome: null,
        last_error: expect.stringMatching(/^CRM getContact answered 500 internal_error: .* \(request req_/),
      }),
    );
    // One attempt, one CRM call (CRM_MAX_RETRIES=0): the poison event cost exactly N calls.
    expect(await readCalls(h)).toBe(before + MAX_ATTEMPTS);

    const listed = await admin(h, 'GET', '/admin/events?status=failed');
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id: reply.json.id,
        status: 'failed',
        attempts: MAX_ATTEMPTS,
        type: 'message.created',
      }),
    ]);
    const metrics = await (
      await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).text();
    expect(metrics).toContain('crmr_events_failed_total{reason="attempts_exhausted"} 1');

    // Failed is final for the reconciler: nothing is enqueued, no CRM call spent.
    await h.app.get(ReconcilerService).reconcile(0);
    expect((await stored(reply.json.id)).status).toBe('failed');
    expect(await readCalls(h)).toBe(before + MAX_ATTEMPTS);

    // The operator fixes the cause and replays it: same event, attempts reset, processed.
    await api(h.sandboxUrl, 'DELETE', '/_sandbox/faults');
    const replay = await admin(h, 'POST', `/admin/events/${reply.json.id}/replay`);
    expect(replay.body).toEqual({ replayedAs: reply.json.id, reset: true, force: false });
    const done = await eventually(async () => {
      const row = await stored(reply.json.id);
      return row?.status === 'processed' ? row : undefined;
    });
    expect(done.attempts).toBe(0);
    await eventually(async () =>
      (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags.some(
        (t: { name: string }) => t.name === 'customer',
      ),
    );
    expect((await admin(h, 'GET', '/admin/events?status=failed')).body.data).toEqual([]);
  }, 60000);

  it('refuses at the door an event whose contact id could never work: no row, no attempt, no CRM call', async () => {
    // Round 1 stored it and let the CRM answer 400 on every attempt; now the intake checks the id
    // (a uuid) before anything is stored or put into a CRM path.
    const before = await readCalls(h);
    const reply = await deliver(h.url, JSON.stringify(messageEvent('not-a-contact-id')));
    expect(reply.status).toBe(400);
    expect(reply.json.id).toBeUndefined();
    expect(await readCalls(h)).toBe(before);
    expect((await admin(h, 'GET', '/admin/events?status=failed')).body.data).toEqual([]);
  });
});
