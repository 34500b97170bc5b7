// After the CRM accepted a customer-facing write, nothing may send it again: a 2xx whose body is
// cut short, a connection cut after the request was written, a database that refuses the
// `succeeded` mark (a test-only trigger raising 40001 / 55P03). For send-message, send-template
// and react the customer holds exactly one message and the action ends succeeded or uncertain;
// then "Retry" and "Retry all" on the console's Failures page (real session and CSRF) send
// nothing more, also for a row left `dead` by the engine before this rule existed.
import { DataSource } from 'typeorm';
import { crm, Harness, newContact, startHarness } from '../../support/engine-harness';
import { consoleLogIn, formFields, type ConsoleClient } from '../../support/console-client';
import { api } from '../../support/http';
import { REACT_RULE, SEND_RULE, actionRowsWhenSettled, TEMPLATE_RULE } from '../../support/message-rules';

jest.setTimeout(180_000);

const ROUTES = {
  send: 'POST /v1/messages',
  template: 'POST /v1/message-templates/send',
  react: 'POST /v1/messages/reactions',
} as const;
type Kind = keyof typeof ROUTES;
const RULE_OF: Record<Kind, string> = { send: 'follow-up', template: 'welcome-back', react: 'thumbs-up' };

const RULES = {
  'send.yaml': SEND_RULE,
  'template.yaml': TEMPLATE_RULE,
  'react.yaml': REACT_RULE,
};

describe('at-most-once after the CRM accepted', () => {
  let h: Harness;
  let db: DataSource;
  let member: string;
  let web: ConsoleClient;
  const settledActions: { kind: Kind; contactId: string; actionId: string }[] = [];

  beforeAll(async () => {
    h = await startHarness({ rules: RULES, env: { CRM_TIMEOUT_MS: '1500' } });
    db = h.app.get(DataSource);
    member = (await crm(h, 'GET', '/v1/users')).body.data[0].id;
    web = await consoleLogIn(h.url);
  });
  afterAll(async () => h?.stop());

  const fault = (spec: Record<string, unknown>) => api(h.sandboxUrl, 'POST', '/_sandbox/faults', spec);
  const counters = async () => (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body;
  const writesSent = async () => {
    const c = await counters();
    return Object.values(ROUTES).reduce((n, route) => n + (c[route] ?? 0), 0);
  };
  const settled = (contactId: string, ruleId: string) => actionRowsWhenSettled(db, contactId, ruleId, 90_000);
  /** What the customer holds: texts of outgoing messages and reactions, as the sandbox stores them. */
  const heldBy = async (contactId: string) => {
    const convs = (await crm(h, 'GET', `/v1/conversations?contactId=${contactId}`)).body.data;
    const held: string[] = [];
    for (const c of convs)
      for (const m of (await crm(h, 'GET', `/v1/messages?conversationId=${c.id}`)).body.data) {
        if (m.isOutgoing) held.push(m.text);
        if (m.reaction) held.push(`reaction ${m.reaction}`);
      }
    return held;
  };
  const trigger = async (kind: Kind, name: string): Promise<string> => {
    const contact = await newContact(h, name, { assigneeId: member });
    if (kind === 'react')
      await api(h.sandboxUrl, 'POST', '/_sandbox/inbound-message', {
        contactId: contact.id,
        text: 'react please',
      });
    else await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { notes: kind });
    return contact.id as string;
  };
  const expectOneMessage = async (kind: Kind, contactId: string, name: string) => {
    const expected = {
      send: `Hello ${name}`,
      template: `Hello ${name}, welcome to Demo Co!`,
      react: 'reaction 👍',
    }[kind];
    expect(await heldBy(contactId)).toEqual([expected]);
  };

  /** A trigger on action_results refusing the `succeeded` mark of customer-facing writes `times` times. */
  const refuseSuccessMark = async (times: number, sqlstate: string) => {
    await db.query(`DROP SEQUENCE IF EXISTS test_refusals`);
    await db.query(`CREATE SEQUENCE test_refusals`);
    await db.query(`
      CREATE OR REPLACE FUNCTION test_refuse_success() RETURNS trigger AS $$
      BEGIN
        IF NEW.status = 'succeeded' AND OLD.status <> 'succeeded'
           AND NEW.action ->> 'type' IN ('send-message', 'send-template', 'react')
           AND nextval('test_refusals') <= ${times} THEN
          RAISE EXCEPTION 'injected: success mark refused' USING ERRCODE = '${sqlstate}';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db.query(`DROP TRIGGER IF EXISTS test_refuse_success ON action_results`);
    await db.query(
      `CREATE TRIGGER test_refuse_success BEFORE UPDATE ON action_results FOR EACH ROW EXECUTE FUNCTION test_refuse_success()`,
    );
  };
  const dropRefusal = async () => {
    await db.query(`DROP TRIGGER IF EXISTS test_refuse_success ON action_results`);
    return Number((await db.query(`SELECT last_value FROM test_refusals`))[0].last_value);
  };

  it.each<[Kind, string]>([
    ['send', 'truncated-answer'],
    ['template', 'truncated-answer'],
    ['react', 'truncated-answer'],
    ['send', 'cut-connection'],
    ['template', 'cut-connection'],
    ['react', 'cut-connection'],
  ])('%s with a %s: one message, succeeded or uncertain', async (kind, faultKind) => {
    await fault({ kind: faultKind, count: 1, route: ROUTES[kind] });
    const name = `${kind} ${faultKind}`.replace(/-/g, ' ');
    const before = (await counters())[ROUTES[kind]] ?? 0;
    const contactId = await trigger(kind, name);
    const [row] = await settled(contactId, RULE_OF[kind]);
    expect(['succeeded', 'uncertain']).toContain(row.status);
    if (faultKind === 'truncated-answer')
      expect(row).toMatchObject({ status: 'succeeded', reason: 'applied_answer_unreadable' });
    else if (kind !== 'react')
      expect(row).toMatchObject({ status: 'succeeded', reason: 'found_after_unclear_outcome' });
    else expect(row).toMatchObject({ status: 'uncertain', error_code: 'transport_error' });
    expect((await counters())[ROUTES[kind]]).toBe(before + 1);
    await expectOneMessage(kind, contactId, name);
    settledActions.push({ kind, contactId, actionId: row.id });
  });

  it.each<[Kind, string]>([
    ['send', '40001'],
    ['template', '55P03'],
    ['react', '40001'],
  ])('%s whose success mark the database refuses (%s, 3 times): one message', async (kind, sqlstate) => {
    await refuseSuccessMark(3, sqlstate);
    const name = `${kind} refused mark`;
    const before = (await counters())[ROUTES[kind]] ?? 0;
    const contactId = await trigger(kind, name);
    const [row] = await settled(contactId, RULE_OF[kind]);
    const refusals = await dropRefusal();
    // The lookup finds a message (send, template): succeeded once the mark goes through. A
    // reaction cannot be looked up: uncertain after the first refusal.
    expect(row).toMatchObject(
      kind === 'react'
        ? { status: 'uncertain' }
        : { status: 'succeeded', reason: 'found_after_unclear_outcome', run_status: 'succeeded' },
    );
    expect(refusals).toBeGreaterThanOrEqual(kind === 'react' ? 1 : 3);
    expect((await counters())[ROUTES[kind]]).toBe(before + 1);
    await expectOneMessage(kind, contactId, name);
    settledActions.push({ kind, contactId, actionId: row.id });
  });

  it('"Retry all" and "Retry" on the Failures page send nothing more, also for a row left dead before this rule', async () => {
    expect(settledActions).toHaveLength(9);
    // The state round 2 left behind: a message sent, its success mark refused, the row `dead
    // internal_error` (as if the engine had treated the refusal as a failure).
    const legacy = settledActions.find((a) => a.kind === 'send')!;
    await db.query(
      `UPDATE action_results SET status = 'dead', error_code = 'internal_error', reason = 'internal_error',
              error_message = 'could not serialize access' WHERE id = $1`,
      [legacy.actionId],
    );
    await db.query(
      `UPDATE runs SET status = 'dead' WHERE id = (SELECT run_id FROM action_results WHERE id = $1)`,
      [legacy.actionId],
    );
    const sentBefore = await writesSent();

    // Retry all: the confirmation lists the dead run and carries its id; confirming refuses it.
    const page = await web.get('/console/failures');
    expect(page.status).toBe(200);
    const all = await web.post(
      '/console/failures/actions',
      // The form's button carries the op, as a browser sends it.
      { ...formFields(page.html, '/console/failures/actions'), op: 'retry' },
    );
    expect(all.status).toBe(200);
    const carried = formFields(all.html, '/console/failures/actions');
    expect(carried.runIds).toEqual(expect.any(String));
    const done = await web.post('/console/failures/actions', carried);
    expect(done.status).toBe(303);
    expect(decodeURIComponent(done.location!)).toContain('0 run(s) queued again; 1 refused');

    // Retry of the one row.
    const row = await web.get('/console/failures');
    const runId = (await db.query(`SELECT run_id FROM action_results WHERE id = $1`, [legacy.actionId]))[0]
      .run_id;
    const one = await web.post('/console/failures/actions', { op: 'retry', runId });
    expect(one.html).toContain('Retry 1 run(s)');
    const oneDone = await web.post(
      '/console/failures/actions',
      formFields(one.html, '/console/failures/actions'),
    );
    expect(decodeURIComponent(oneDone.location!)).toContain('0 run(s) queued again; 1 refused');
    expect(row.status).toBe(200);

    // Nothing queued, nothing sent: every customer still holds one message.
    expect(
      (await db.query(`SELECT count(*)::int AS n FROM runs WHERE status IN ('pending', 'running')`))[0].n,
    ).toBe(0);
    expect(await writesSent()).toBe(sentBefore);
    for (const a of settledActions) expect(await heldBy(a.contactId)).toHaveLength(1);
  });
});
