import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { DataSource } from 'typeorm';
import { signatureHeader } from '../../../src/language/net/verify-signature';
import { InboxBatcher, UnstorablePayloadError } from '../../../src/pipeline/intake/inbox-batcher';
import { INTAKE_DB } from '../../../src/pipeline/intake/intake-db';
import { eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';

const RULES = {
  'tag.yaml': ['rule: tag-updated', 'on: contact.updated', 'do:', '  - add-tag: vip', ''].join('\n'),
};

describe('webhook intake', () => {
  let h: Harness;
  let db: DataSource;
  let contact: Record<string, any>;
  const count = async (sql: string, params: unknown[] = []) => Number((await db.query(sql, params))[0].n);

  beforeAll(async () => {
    h = await startHarness({
      rules: RULES,
      subscribe: false,
      env: {
        CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        WEBHOOK_BODY_LIMIT_BYTES: '4096',
        HTTP_REQUEST_TIMEOUT_MS: '1500',
      },
    });
    db = h.app.get(DataSource);
    contact = await newContact(h, 'Ivy Intake');
  });
  afterAll(async () => h?.stop());

  it('refuses forged, stale and malformed deliveries and stores nothing', async () => {
    const before = await count(`SELECT count(*) AS n FROM inbox_events`);
    const body = JSON.stringify(contactEvent('contact.updated', contact));
    const forged = await deliver(h.url, body, { secret: 'not-the-secret' });
    const stale = await deliver(h.url, body, { nowSeconds: Math.floor(Date.now() / 1000) - 301 });
    const unsigned = await deliver(h.url, body, { header: null });
    const notJson = await deliver(h.url, '{"type": "contact.updated", ');
    const noType = await deliver(h.url, JSON.stringify({ id: 'evt_x', data: {} }));
    expect([forged.status, stale.status, unsigned.status, notJson.status, noType.status]).toEqual([
      401, 401, 401, 400, 400,
    ]);
    expect(JSON.stringify(forged.json)).not.toContain('Ivy Intake'); // no body echo
    expect(forged.json.error.message).toContain('signature_mismatch');
    expect(stale.json.error.message).toContain('timestamp_too_old');
    expect(await count(`SELECT count(*) AS n FROM inbox_events`)).toBe(before);
  });

  it('answers 413 past the size limit', async () => {
    const body = JSON.stringify(contactEvent('contact.updated', { ...contact, notes: 'x'.repeat(5000) }));
    expect((await deliver(h.url, body)).status).toBe(413);
  });

  it('answers 2xx and creates one event and one run for concurrent duplicate deliveries', async () => {
    const body = JSON.stringify(contactEvent('contact.updated', contact));
    const replies = await Promise.all(Array.from({ length: 8 }, () => deliver(h.url, body)));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(replies.filter((r) => r.json.duplicate === false)).toHaveLength(1);
    const id = replies[0].json.id;
    expect(new Set(replies.map((r) => r.json.id))).toEqual(new Set([id]));
    await eventually(
      async () => (await count(`SELECT count(*) AS n FROM runs WHERE inbox_event_id = $1`, [id])) === 1,
    );
    expect(
      await count(`SELECT count(*) AS n FROM inbox_events WHERE event_key = $1`, [
        `id:${JSON.parse(body).id}`,
      ]),
    ).toBe(1);
  });

  it('deduplicates deliveries without an event id by their body hash', async () => {
    const body = JSON.stringify(contactEvent('contact.updated', { ...contact, notes: 'no id' }, null));
    const first = await deliver(h.url, body);
    const second = await deliver(h.url, body);
    expect([first.json.duplicate, second.json.duplicate]).toEqual([false, true]);
    expect(second.json.id).toBe(first.json.id);
  });

  it('answers 400 to a payload Postgres cannot store without failing deliveries that arrive with it', async () => {
    // A lone surrogate escape: valid JSON for JavaScript, refused by Postgres' jsonb.
    const poison = `{"id":"evt_surrogate_${Date.now()}","type":"contact.updated","data":{"notes":"\\ud800"}}`;
    const good = JSON.stringify(contactEvent('contact.updated', contact));
    const [bad, ok] = await Promise.all([deliver(h.url, poison), deliver(h.url, good)]);
    expect(bad.status).toBe(400);
    expect(ok.status).toBe(200);
  });

  it('stores a signed payload holding \\u0000 losslessly instead of refusing it', async () => {
    const body = JSON.stringify(contactEvent('contact.updated', { ...contact, notes: 'before\u0000after' }));
    expect(body).toContain('\\u0000');
    const reply = await deliver(h.url, body);
    expect(reply.status).toBe(200);
    const [row] = await db.query(`SELECT payload, raw_body FROM inbox_events WHERE id = $1`, [reply.json.id]);
    expect(row.raw_body).toBe(body); // exactly what the CRM signed
    expect(JSON.parse(row.raw_body).data.notes).toBe('before\u0000after');
    expect(row.payload.data.notes).toBe('before\ufffdafter'); // what rules see
    await eventually(
      async () =>
        (await count(`SELECT count(*) AS n FROM runs WHERE inbox_event_id = $1`, [reply.json.id])) === 1,
    );
  });

  it.each([
    ['a contact event whose id is a path segment', { type: 'contact.updated', data: { id: '..' } }],
    [
      'a message event whose contact id is a path',
      { type: 'message.created', data: { contactId: 'x/../y' } },
    ],
  ])('refuses %s and stores nothing', async (_name, event) => {
    const before = await count(`SELECT count(*) AS n FROM inbox_events`);
    const reply = await deliver(h.url, JSON.stringify({ id: `evt_badid_${Date.now()}`, ...event }));
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toMatch(/must be a uuid/);
    expect(await count(`SELECT count(*) AS n FROM inbox_events`)).toBe(before);
  });

  it('refuses a missing or stale signature header before reading the body', async () => {
    // The body is announced but never sent: only a check of the headers alone can answer.
    const stale = signatureHeader(TEST_WEBHOOK_SECRET, '{}', Math.floor(Date.now() / 1000) - 3600);
    for (const header of [undefined, 'garbage', stale]) {
      const res = await rawDelivery(h.url, { header, contentLength: 1000, send: [] });
      expect(res.statusCode).toBe(401);
    }
  });

  it('answers 413 as soon as a streamed body passes the limit, and closes the connection', async () => {
    const header = signatureHeader(TEST_WEBHOOK_SECRET, 'unused');
    // Chunked, so the size is unknown up front; 10 chunks of 1 KiB against a 4 KiB limit, and
    // the last never comes: the answer cannot wait for the end of the body.
    const res = await rawDelivery(h.url, { header, send: Array(10).fill('x'.repeat(1024)) });
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe('close');
  });

  it('answers 408 when the body does not arrive within HTTP_REQUEST_TIMEOUT_MS', async () => {
    const header = signatureHeader(TEST_WEBHOOK_SECRET, 'unused');
    const res = await rawDelivery(h.url, { header, contentLength: 100, send: ['{"id":'] });
    expect(res.statusCode).toBe(408);
  });

  // What Postgres refuses for a row's shape, one per SQLSTATE class the batcher splits on.
  const deep = (depth: number) => `{"data":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  it.each([
    ['\\u0000 in jsonb (22P05)', () => '{"notes":"\\u0000"}', ''],
    ['JSON nested 50,000 deep (54001 stack depth)', () => deep(50_000), ''],
    ['an event id too long for its unique index (54000)', () => '{}', randomBytes(100_000).toString('hex')],
  ])(
    'stores the good rows of a batch that also holds an unstorable one: %s',
    async (_name, poisonJson, longKey) => {
      const inserted: string[] = [];
      const batcher = new InboxBatcher(h.app.get<DataSource>(INTAKE_DB), (rows) =>
        inserted.push(...rows.map((r) => r.row.key)),
      );
      const row = (key: string, payloadJson: string) => ({
        key,
        type: 'contact.updated',
        payloadJson,
        contactId: null,
      });
      const stamp = `${Date.now()}-${Math.random()}`;
      // All stored in the same tick: one INSERT, which Postgres refuses because of the poison.
      const results = await Promise.allSettled([
        batcher.store(row(`test:good1:${stamp}`, '{"notes":"fine"}')),
        batcher.store(row(`test:poison:${stamp}${longKey}`, poisonJson())),
        batcher.store(row(`test:good2:${stamp}`, '{"notes":"fine too"}')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(results[1]).toEqual({ status: 'rejected', reason: expect.any(UnstorablePayloadError) });
      expect(inserted).toEqual([`test:good1:${stamp}`, `test:good2:${stamp}`]);
    },
  );

  it('stores and acknowledges unknown event kinds without running anything', async () => {
    const reply = await deliver(
      h.url,
      JSON.stringify({ id: `evt_unknown_${Date.now()}`, type: 'account.exploded', data: {} }),
    );
    expect(reply.status).toBe(200);
    await eventually(
      async () =>
        (await db.query(`SELECT status FROM inbox_events WHERE id = $1`, [reply.json.id]))[0].status ===
        'processed',
    );
    expect(await count(`SELECT count(*) AS n FROM runs WHERE inbox_event_id = $1`, [reply.json.id])).toBe(0);
  });
});

/**
 * A delivery written by hand: headers, then the given chunks, then nothing more (the body is
 * never finished): the answer must come without the rest of the body.
 */
function rawDelivery(
  base: string,
  opts: { header?: string; contentLength?: number; send: string[] },
): Promise<IncomingMessage> {
  const url = new URL('/webhooks/crm', base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(opts.header ? { 'x-service-signature': opts.header } : {}),
        ...(opts.contentLength !== undefined ? { 'content-length': opts.contentLength } : {}),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res);
      req.destroy();
    });
    req.on('error', reject);
    req.flushHeaders();
    for (const chunk of opts.send) req.write(chunk);
  });
}
