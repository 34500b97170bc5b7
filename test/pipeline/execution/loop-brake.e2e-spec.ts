// Issue 30: the own-write loop brake (own_write_loop, 120 s) holds only rules that can loop, those
// whose actions write the contact in the CRM; a rule that only calls out (http-request) is run for
// every change. Every suppression the brake makes is visible: the run (suppressed own_write_loop),
// a metric and a log line naming the rule and the contact. Real receiver, sandbox and engine.
import { DataSource } from 'typeorm';
import {
  ADMIN_TOKEN,
  admin,
  crm,
  eventually,
  Harness,
  newContact,
  startHarness,
} from '../../support/engine-harness';
import { request } from '../../support/http';
import { startReceiver, type Receiver } from '../../support/http-receiver';
import { capturedLogging, LogCapture } from '../../operator/console/log-capture';

jest.setTimeout(120_000);

const SIGNING_SECRET = 'engine-signing-secret-0123456789abcdef';
const rules = (erp: string) => ({
  'notify.yaml': `
rule: notify-rename
on: [contact.created, contact.updated]
if:
  all:
    - { fact: contact.name, operator: matches, value: "^Notify" }
    - { fact: contact.name, operator: changed, value: true }
do:
  - http-request: { name: notify, url: "${erp}/renamed", body: { contactId: "{{contact.id}}", name: "{{contact.name}}" } }
`,
  // Writes a new value on every run: without the brake each write's contact.updated would run it again.
  'stamp.yaml': `
rule: stamp
on: contact.updated
if: { fact: contact.name, operator: matches, value: "^Stamp" }
do:
  - set-field: { key: company, value: "{{event.id}}" }
`,
});

describe('the loop brake holds only what can loop', () => {
  let h: Harness;
  let db: DataSource;
  let erp: Receiver;
  const logs = new LogCapture();

  beforeAll(async () => {
    erp = await startReceiver('127.0.0.2', SIGNING_SECRET, {
      '/renamed': () => ({ status: 200, json: { ok: true } }),
    });
    h = await startHarness({
      rules: rules(erp.url),
      ...capturedLogging(
        logs,
        {
          HTTP_ACTION_ALLOWED_HOSTS: '127.0.0.2',
          HTTP_ACTION_ALLOW_PRIVATE: '127.0.0.2/32',
          HTTP_ACTION_SIGNING_SECRET: SIGNING_SECRET,
          RULES_WATCH: 'false',
        },
        'info',
      ),
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => {
    await h?.stop();
    await erp?.close();
  });

  const runsOf = (contactId: string, ruleId: string) =>
    db.query(`SELECT status, reason FROM runs WHERE contact_id = $1 AND rule_id = $2 ORDER BY created_at`, [
      contactId,
      ruleId,
    ]);

  it('the loop brake does not hold a rule that writes nothing in the CRM: 3 renames, 3 calls', async () => {
    const contact = await newContact(h, 'Notify Nora');
    // contact.created puts the contact in the mirror: the first rename has a previous state. No rule
    // matches it, so it ends with its decision on its own row (no run: issue 35).
    await eventually(async () => {
      const [created] = await db.query(
        `SELECT inbox_decision(unmatched, unmatched_set, unmatched_rules) AS unmatched FROM inbox_events WHERE contact_id = $1 AND type = 'contact.created' AND status = 'processed'`,
        [contact.id],
      );
      return created?.unmatched ? true : undefined;
    });
    expect(await runsOf(contact.id, 'notify-rename')).toEqual([]);
    for (const name of ['Notify Nora B', 'Notify Nora C', 'Notify Nora D']) {
      const before = erp.requests.length;
      expect((await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { name })).status).toBe(200);
      // One rename at a time, each after the previous call arrived (the finding: 5-15 s apart).
      await eventually(async () => erp.requests.length > before, 60_000);
    }
    const runs = await eventually(async () => {
      const rows = await runsOf(contact.id, 'notify-rename');
      return rows.length === 3 &&
        rows.every((r: { status: string }) => !['pending', 'running'].includes(r.status))
        ? rows
        : undefined;
    }, 60_000);
    expect(runs).toEqual([
      { status: 'succeeded', reason: null },
      { status: 'succeeded', reason: null },
      { status: 'succeeded', reason: null },
    ]);
    const names = erp.requests.map((r) => JSON.parse(r.body).name);
    expect(names).toEqual(expect.arrayContaining(['Notify Nora B', 'Notify Nora C', 'Notify Nora D']));
  });

  it('every suppression is visible: the run, the metric and a log line with rule and contact', async () => {
    const contact = await newContact(h, 'Stamp Sam');
    await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { notes: 'go' });
    const runs = await eventually(async () => {
      const rows = await runsOf(contact.id, 'stamp');
      return rows.some((r: { reason: string }) => r.reason === 'own_write_loop') ? rows : undefined;
    }, 60_000);
    expect(runs[0]).toEqual({ status: 'succeeded', reason: null });
    expect(runs[1]).toEqual({ status: 'suppressed', reason: 'own_write_loop' });
    await eventually(async () =>
      logs.text().includes(`loop brake: rule stamp suppressed for contact ${contact.id}`),
    );
    const metrics = await request(`${h.url}/metrics`, 'GET', { headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(String(metrics.body)).toMatch(/crmr_loop_brake_total\{rule="stamp"\} [1-9]/);
    // And the run in the admin API, as today's skips are.
    const listed = await admin(h, 'GET', `/admin/runs?contactId=${contact.id}`);
    expect(JSON.stringify(listed.body)).toContain('own_write_loop');
  });
});
