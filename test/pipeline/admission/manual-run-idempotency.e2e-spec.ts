// Manual runs are idempotent. A manual run posted twice (the same console confirmation submitted
// twice, the admin API's confirmation sent twice, `crm-rules run` typed twice) sent the customer
// two messages and nothing warned. Now the preview issues an idempotency key the confirmation
// carries (stored once: the run's trigger key, UQ_runs_trigger_rule_contact), a second submit of it
// answers the first run and does nothing; the CLI says when the rule already ran for the contact
// and how it ended, and runs again only with --again. The CLI also finds the demo's kept
// .data/admin-token when ADMIN_TOKEN is unset, and waits for the run's outcome.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { runCommand } from '../../../src/tooling/cli/run.command';
import { consoleLogIn, formFields } from '../../support/console-client';
import { crm, Harness, newContact, startHarness } from '../../support/engine-harness';
import { api } from '../../support/http';

jest.setTimeout(120_000);

const TOKEN = randomBytes(24).toString('hex');
const RULES = {
  'hello.yaml': `
rule: hello-by-hand
on: contact.updated
if: { fact: contact.name, operator: startsWith, value: Hello }
do:
  - send-message: { text: "Hello {{contact.name}}", channel: Main WhatsApp }
`,
};

describe('manual runs are idempotent', () => {
  let h: Harness;
  let db: DataSource;
  let root: string;

  beforeAll(async () => {
    h = await startHarness({
      rules: RULES,
      subscribe: false,
      env: { ADMIN_TOKEN: TOKEN, RULES_WATCH: 'false' },
    });
    db = h.app.get(DataSource);
    root = mkdtempSync(join(tmpdir(), 'crmr-cli-'));
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await h?.stop();
  });

  const admin = (method: string, path: string, body?: unknown) =>
    api(h.url, method, path, body, { 'x-admin-token': TOKEN });
  const runsOf = async (contactId: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM runs WHERE contact_id = $1`, [contactId]))[0].n as number;
  const hellos = async (contactId: string) => {
    let n = 0;
    for (const c of (await crm(h, 'GET', `/v1/conversations?contactId=${contactId}`)).body.data)
      for (const m of (await crm(h, 'GET', `/v1/messages?conversationId=${c.id}`)).body.data)
        if (m.isOutgoing && String(m.text).startsWith('Hello')) n++;
    return n;
  };
  const customer = async (name: string) => {
    const member = (await crm(h, 'GET', '/v1/users')).body.data[0].id;
    return (await newContact(h, name, { assigneeId: member })).id as string;
  };

  it('admin API: the preview issues a key; its confirmation sent twice runs once', async () => {
    const contactId = await customer('Hello Api');
    const path = '/admin/rules/hello-by-hand/run';
    const preview = await admin('POST', path, { contactId, dryRun: true });
    expect(preview.body.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const confirm = { contactId, idempotencyKey: preview.body.idempotencyKey };
    const [first, second] = [await admin('POST', path, confirm), await admin('POST', path, confirm)];
    expect(first.body).toMatchObject({ repeated: false, run: { status: 'pending' } });
    expect(second.body).toMatchObject({ repeated: true, run: { id: first.body.run.id } });
    expect(await runsOf(contactId)).toBe(1);
    // Two at once: one run too.
    const again = (await admin('POST', path, { contactId, dryRun: true })).body.idempotencyKey;
    const both = await Promise.all([
      admin('POST', path, { contactId, idempotencyKey: again }),
      admin('POST', path, { contactId, idempotencyKey: again }),
    ]);
    expect(both[0].body.run.id).toBe(both[1].body.run.id);
    expect(await runsOf(contactId)).toBe(2);
    expect((await admin('POST', path, { contactId, idempotencyKey: 'not-a-uuid' })).status).toBe(400);
  });

  it('console: the same confirmation submitted twice lands on one run', async () => {
    const contactId = await customer('Hello Console');
    const web = await consoleLogIn(h.url, TOKEN);
    const preview = await web.get(`/console/rules/hello-by-hand/run?contactId=${contactId}`);
    expect(preview.status).toBe(200);
    const fields = formFields(preview.html, '/console/rules/hello-by-hand/run');
    expect(fields.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const first = await web.post('/console/rules/hello-by-hand/run', fields);
    const second = await web.post('/console/rules/hello-by-hand/run', fields);
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/\/console\/runs\/[0-9a-f-]{36}$/);
    expect(second.location).toBe(first.location);
    expect(await runsOf(contactId)).toBe(1);
  });

  it('crm-rules run twice: the second says it ran and how it ended, and runs only with --again', async () => {
    const contactId = await customer('Hello Cli');
    // No ADMIN_TOKEN: the CLI takes the demo's kept token from .data/admin-token.
    mkdirSync(join(root, '.data'), { recursive: true });
    writeFileSync(join(root, '.data', 'admin-token'), `${TOKEN}\n`);
    const out: string[] = [];
    const err: string[] = [];
    const cli = (again = false) =>
      runCommand(
        { rule: 'hello-by-hand', contact: contactId, url: h.url, again, waitSeconds: '600' },
        (l = '') => out.push(l),
        (l) => err.push(l),
        { ADMIN_TOKEN: '' },
        root,
      );
    expect(await cli()).toBe(0);
    // It waited for the outcome instead of printing `pending` and exiting.
    expect(out).toContainEqual(expect.stringMatching(/^run [0-9a-f-]{36} ended succeeded$/));
    expect(out).toContain('  send-message: succeeded');
    expect(await hellos(contactId)).toBe(1);

    out.length = 0;
    expect(await cli()).toBe(1);
    expect(err.join('\n')).toMatch(
      /hello-by-hand already ran for .* in the last 24 hours:\n {2}run [0-9a-f-]{36} \d+ (s|min) ago: succeeded/,
    );
    expect(err.join('\n')).toContain('pass --again');
    expect(out).toEqual([]);
    expect(await runsOf(contactId)).toBe(1);
    expect(await hellos(contactId)).toBe(1);

    expect(await cli(true)).toBe(0);
    expect(await runsOf(contactId)).toBe(2);
    expect(await hellos(contactId)).toBe(2);
  });
});
