// Issue 30, the inbound side: requests that stopped the engine, payloads too deep for its readers,
// a custom delivery resent under new unsigned ids, and source names told apart by their answers.
// Each case is a finding of the outside review, against a running engine (real Postgres, Redis,
// the sandbox over HTTP).
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { DataSource } from 'typeorm';
import { signatureHeader } from '../../../src/language/net/verify-signature';
import { MAX_JSON_DEPTH, TOO_DEEP_MARKER } from '../../../src/language/net/json-depth';
import {
  admin,
  ADMIN_TOKEN,
  eventually,
  Harness,
  newContact,
  startHarness,
} from '../../support/engine-harness';
import { request } from '../../support/http';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';

const SECRET = 'whsec_hardening_e2e_0123456789abcdef';
const SOURCES = `sources:
  - name: forms
    secret: SOURCE_SECRET_HARDENING_E2E
    schema: { type: object }
    contact: { by: phone, from: /phone }
  - name: weak
    secret: SOURCE_SECRET_HARDENING_E2E_WEAK
    schema: { type: object }
    contact: { by: phone, from: /phone }
  - name: unset
    secret: SOURCE_SECRET_HARDENING_E2E_UNSET
    schema: { type: object }
    contact: { by: phone, from: /phone }
`;
const RULE = `rule: form-tag
on: custom.forms
do:
  - add-tag: vip
`;

/** A raw request: the path goes out exactly as written (fetch would normalise it). */
function raw(url: string, method: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function hook(h: Harness, source: string, body: string, headers: Record<string, string>) {
  const res = await request(`${h.url}/hooks/${source}`, 'POST', { rawBody: body, headers });
  return { status: res.status, json: res.body as { duplicate?: boolean; id?: string } };
}

describe('intake hardening (issue 30)', () => {
  let h: Harness;
  let db: DataSource;
  const exits: string[] = [];
  const onUncaught = (err: Error) => exits.push(`uncaughtException: ${err.message}`);

  beforeAll(async () => {
    process.env.SOURCE_SECRET_HARDENING_E2E = SECRET;
    process.env.SOURCE_SECRET_HARDENING_E2E_WEAK = 'x';
    process.on('uncaughtException', onUncaught);
    h = await startHarness({
      rules: { 'sources.yaml': SOURCES, 'forms.yaml': RULE },
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET },
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    delete process.env.SOURCE_SECRET_HARDENING_E2E;
    delete process.env.SOURCE_SECRET_HARDENING_E2E_WEAK;
    await h?.stop();
  });

  it.each(['/hooks/%zz', '/hooks/%E0%A4%A', '/hooks/%', '/hooks/a%2', '/webhooks/crm%zz'])(
    'a malformed path does not stop the engine: POST %s is a 4xx',
    async (path) => {
      const res = await raw(h.url, 'POST', path);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect((await request(`${h.url}/health`, 'GET')).status).toBe(200);
      expect(exits).toEqual([]);
    },
  );

  it(`refuses a signed CRM webhook nested deeper than ${MAX_JSON_DEPTH} levels with 400, and keeps nothing`, async () => {
    const contact = await newContact(h, 'Dee Deep');
    const at = (depth: number) =>
      JSON.stringify({
        ...contactEvent('contact.updated', contact),
        extra: JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
      });
    // The event is one level; `extra` adds its own.
    expect((await deliver(h.url, at(MAX_JSON_DEPTH - 1))).status).toBe(200);
    const tooDeep = await deliver(h.url, at(MAX_JSON_DEPTH));
    expect(tooDeep).toEqual({ status: 400, json: { error: expect.objectContaining({ code: 'too_deep' }) } });
  });

  it.each([5_000, 15_000])(
    'refuses a deep signed payload (%d levels) at intake, for webhooks and custom sources',
    async (depth) => {
      const before = Number((await db.query(`SELECT count(*) AS n FROM inbox_events`))[0].n);
      const nested = '['.repeat(depth) + ']'.repeat(depth);
      const webhook = await deliver(h.url, `{"id":"evt_${randomUUID()}","type":"x","data":${nested}}`);
      expect(webhook.status).toBe(400);
      const body = `{"phone":"+1","deep":${nested}}`;
      const custom = await hook(h, 'forms', body, { 'x-service-signature': signatureHeader(SECRET, body) });
      expect(custom).toEqual({ status: 400, json: { error: expect.objectContaining({ code: 'too_deep' }) } });
      expect(Number((await db.query(`SELECT count(*) AS n FROM inbox_events`))[0].n)).toBe(before);
    },
  );

  it('the admin page and the events export show an already-stored deep row (no 500, no cut export)', async () => {
    // Stored before intake refused such payloads (Postgres takes 10,000 levels; JSON.stringify does not).
    const key = `evt_deep_${randomUUID()}`;
    const [{ id }] = await db.query(
      `INSERT INTO inbox_events (event_key, type, payload, status) VALUES ($1, 'contact.updated', $2::jsonb, 'processed') RETURNING id`,
      [key, `{"id":"${key}","type":"contact.updated","data":${'['.repeat(10_000)}${']'.repeat(10_000)}}`],
    );
    const page = await admin(h, 'GET', `/admin/events/${id}`);
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body.payload)).toContain(TOO_DEEP_MARKER);
    const exported = await request(`${h.url}/admin/events/export`, 'GET', {
      headers: { 'x-admin-token': ADMIN_TOKEN },
    });
    expect(exported.status).toBe(200);
    const lines = String(exported.body).trim().split('\n');
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.some((line) => JSON.stringify(line).includes(key))).toBe(true);
  });

  it('custom sources dedupe on the signed body: 3 resends with X-Event-Id attacker-N give 1 event, 1 run', async () => {
    const contact = await newContact(h, 'Rhea Resend');
    const body = JSON.stringify({ phone: `+${contact.phone}`, nonce: randomUUID() });
    const header = signatureHeader(SECRET, body);
    const replies = [];
    for (const n of [1, 2, 3])
      replies.push(
        await hook(h, 'forms', body, { 'x-service-signature': header, 'x-event-id': `attacker-${n}` }),
      );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(replies.map((r) => r.json.duplicate)).toEqual([false, true, true]);
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
    const runs = await eventually(async () => {
      const rows = await db.query(`SELECT status FROM runs WHERE rule_id = 'form-tag' AND contact_id = $1`, [
        contact.id,
      ]);
      return rows.length && rows.every((r: { status: string }) => r.status === 'succeeded')
        ? rows
        : undefined;
    });
    expect(runs).toEqual([{ status: 'succeeded' }]);
    const events = await db.query(
      `SELECT id FROM inbox_events WHERE type = 'custom.forms' AND payload->'data'->>'nonce' = $1`,
      [JSON.parse(body).nonce],
    );
    expect(events).toHaveLength(1);
  });

  it('source names are not enumerable: unknown, unconfigured and unauthenticated answer the same', async () => {
    const body = '{"phone":"+1"}';
    const wrong = signatureHeader('not-the-secret-0123456789abcdef0123', body);
    const answers = await Promise.all(
      ['forms', 'unset', 'no-such-source', 'x%2Fy'].map((name) =>
        hook(h, name, body, { 'x-service-signature': wrong }),
      ),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      status: 401,
      json: { error: { code: 'invalid_signature', message: 'signature rejected: signature_mismatch' } },
    });
    // Source secrets: a value under 32 characters is no key, even signed correctly with it.
    const weak = await hook(h, 'weak', body, { 'x-service-signature': signatureHeader('x', body) });
    expect(weak).toEqual(answers[0]);
    const unsigned = await Promise.all(['forms', 'no-such-source'].map((name) => hook(h, name, body, {})));
    expect(unsigned[0]).toEqual(unsigned[1]);
    expect(unsigned[0].status).toBe(401);
  });
});
