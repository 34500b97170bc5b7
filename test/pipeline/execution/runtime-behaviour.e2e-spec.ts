// What the runner promises beyond single actions, end to end through the engine (webhooks from the
// sandbox, rules, runs, the gateway, the CRM's state read back): cooldown, own-write loop
// protection, shadow mode, assign-first, previous_action_failed and a busy contact. Priority order
// of the rules of one event: test/pipeline/execution/new-actions.e2e-spec.ts.
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { ACTIONS_QUEUE, actionJobId } from '../../../src/runtime/queues/queue-jobs';
import { DEMO } from '../../support/demo-fixture';
import { crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { api } from '../../support/http';

jest.setTimeout(120_000);

const REACT_ROUTE = 'POST /v1/messages/reactions';
const RULES = {
  'cooldown.yaml': `
rule: cool-react
on: message.created
if:
  all:
    - { fact: message.isOutgoing, operator: equal, value: false }
    - { fact: contact.name, operator: matches, value: "^Cool" }
cooldown: 3s
do:
  - react: "👍"
`,
  // Writes a new value on every run (the event's id): without loop protection each write's
  // contact.updated would trigger the next one, for ever.
  'loop.yaml': `
rule: stamp
on: contact.updated
if: { fact: contact.name, operator: matches, value: "^Loop" }
do:
  - set-field: { key: company, value: "{{event.id}}" }
`,
  'shadow.yaml': `
rule: shadow-greet
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Shadow" }
mode: shadow
do:
  - add-tag: vip
  - send-message: { text: "Hi {{contact.name}}", channel: Main WhatsApp }
`,
  'greet.yaml': `
rule: greet
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Greet" }
do:
  - send-message: { text: "Hi {{contact.name}}", channel: Main WhatsApp }
    assign-first: Ben Sales
`,
  // The wait leaves time to block the contact before the message (a contact is created unblocked).
  'greet-later.yaml': `
rule: greet-later
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Later" }
do:
  - wait: 4s
  - send-message: { text: "Hi {{contact.name}}", channel: Main WhatsApp }
    assign-first: Ben Sales
`,
  'fail.yaml': `
rule: fail-first
on: contact.updated
if:
  all:
    - { fact: contact.name, operator: matches, value: "^Fail" }
    - { fact: contact.notes, operator: equal, value: "fail" }
do:
  - send-message: "Following up"
  - add-tag: vip
`,
  'busy.yaml': `
rule: busy-react
on: message.created
if:
  all:
    - { fact: message.isOutgoing, operator: equal, value: false }
    - { fact: contact.name, operator: matches, value: "^Busy" }
do:
  - react: "👀"
`,
};

interface RunRowView {
  id: string;
  status: string;
  reason: string | null;
  mode: string;
  /** The triggering event's id, and the id of its data (the message of a message.* event). */
  event_id: string | null;
  message_id: string | null;
}

describe('runtime behaviour of rules and actions', () => {
  let h: Harness;
  let db: DataSource;

  beforeAll(async () => {
    h = await startHarness({ rules: RULES });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  /** The rule's runs for the contact in creation order, with the triggering message's id. */
  const runsOf = (contactId: string, ruleId: string): Promise<RunRowView[]> =>
    db.query(
      `SELECT r.id, r.status, r.reason, r.mode, e.payload->>'id' AS event_id,
              e.payload->'data'->>'id' AS message_id
         FROM runs r LEFT JOIN inbox_events e ON e.id = r.inbox_event_id
        WHERE r.contact_id = $1 AND r.rule_id = $2 ORDER BY r.created_at, r.seq`,
      [contactId, ruleId],
    );
  const finished = (run: RunRowView | undefined) =>
    !!run && !['pending', 'running', 'waiting'].includes(run.status);
  /** Waits for `count` finished runs of the rule for the contact. */
  const settledRuns = (contactId: string, ruleId: string, count: number) =>
    eventually(async () => {
      const runs = await runsOf(contactId, ruleId);
      return runs.length === count && runs.every(finished) ? runs : undefined;
    }, 60_000);
  const actionsOf = (runId: string) =>
    db.query(
      `SELECT action->>'type' AS type, status, reason, error_code, started_at, finished_at
         FROM action_results WHERE run_id = $1
        ORDER BY action_index`,
      [runId],
    );
  const messagesOf = async (contactId: string) => {
    const all: { id: string; text: string; isOutgoing: boolean; reaction?: string | null }[] = [];
    for (const c of (await crm(h, 'GET', `/v1/conversations?contactId=${contactId}`)).body.data)
      all.push(...(await crm(h, 'GET', `/v1/messages?conversationId=${c.id}`)).body.data);
    return all;
  };
  const contactNow = async (id: string) => (await crm(h, 'GET', `/v1/contacts/${id}`)).body;
  const write = async (contactId: string, text: string): Promise<string> =>
    (await api(h.sandboxUrl, 'POST', '/_sandbox/inbound-message', { contactId, text })).body.message.id;
  const calls = async (route: string): Promise<number> =>
    (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[route] ?? 0;

  it('cooldown: a second trigger inside the cooldown is not acted on; one after it is', async () => {
    const contact = await newContact(h, 'Cool Carl', { assigneeId: DEMO.members.ana });
    const first = await write(contact.id, 'one');
    await settledRuns(contact.id, 'cool-react', 1);
    const second = await write(contact.id, 'two');
    const [acted, held] = await settledRuns(contact.id, 'cool-react', 2);
    expect(acted).toMatchObject({ status: 'succeeded', message_id: first });
    expect(held).toMatchObject({ status: 'suppressed', reason: 'cooldown', message_id: second });
    // Past the cooldown (by the database's clock, which the claim uses).
    await eventually(
      async () =>
        (
          await db.query(
            `SELECT 1 FROM enrollments WHERE rule_id = 'cool-react' AND contact_id = $1
              AND last_fired_at < now() - interval '3 seconds'`,
            [contact.id],
          )
        ).length > 0,
      20_000,
      200,
    );
    const third = await write(contact.id, 'three');
    const runs = await settledRuns(contact.id, 'cool-react', 3);
    expect(runs[2]).toMatchObject({ status: 'succeeded', message_id: third });
    const reactions = Object.fromEntries((await messagesOf(contact.id)).map((m) => [m.id, m.reaction]));
    expect(reactions).toEqual({ [first]: '👍', [second]: null, [third]: '👍' });
  });

  it("own-write loop protection: the engine's own write does not trigger the rule again", async () => {
    const contact = await newContact(h, 'Loop Lee');
    await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { notes: 'go' });
    // The PATCH triggers the rule; its write's contact.updated matches again and is held back.
    const [acted, held] = await settledRuns(contact.id, 'stamp', 2);
    expect(acted).toMatchObject({ status: 'succeeded' });
    expect(held).toMatchObject({ status: 'suppressed', reason: 'own_write_loop' });
    // Nothing more comes: every event of the contact is processed and no third run exists.
    await eventually(async () => {
      const [{ pending }] = await db.query(
        `SELECT count(*)::int AS pending FROM inbox_events WHERE status <> 'processed' AND contact_id = $1`,
        [contact.id],
      );
      return pending === 0;
    });
    expect(await runsOf(contact.id, 'stamp')).toHaveLength(2);
    expect((await contactNow(contact.id)).customFields.company).toBe(acted.event_id);
  });

  it('shadow mode: the run and its actions are recorded, the CRM is not written', async () => {
    const tagCalls = await calls('POST /v1/contacts/:contactId/tags/:tagId');
    const contact = await newContact(h, 'Shadow Sue', { assigneeId: DEMO.members.ana });
    const [run] = await settledRuns(contact.id, 'shadow-greet', 1);
    expect(run).toMatchObject({ status: 'succeeded', mode: 'shadow' });
    expect(await actionsOf(run.id)).toEqual([
      expect.objectContaining({ status: 'skipped', reason: 'shadow_mode' }),
      expect.objectContaining({ status: 'skipped', reason: 'shadow_mode' }),
    ]);
    expect((await contactNow(contact.id)).tags).toEqual([]);
    expect(await messagesOf(contact.id)).toEqual([]);
    expect(await calls('POST /v1/contacts/:contactId/tags/:tagId')).toBe(tagCalls);
  });

  it('assign-first: assigns the named member only when there is none, never for a blocked contact', async () => {
    const unassigned = await newContact(h, 'Greet Gina');
    const assigned = await newContact(h, 'Greet Gus', { assigneeId: DEMO.members.ana });

    const [gina] = await settledRuns(unassigned.id, 'greet', 1);
    expect(await actionsOf(gina.id)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect((await contactNow(unassigned.id)).assigneeId).toBe(DEMO.members.ben);
    expect((await messagesOf(unassigned.id)).map((m) => m.text)).toEqual(['Hi Greet Gina']);

    const [gus] = await settledRuns(assigned.id, 'greet', 1);
    expect(gus).toMatchObject({ status: 'succeeded' });
    expect((await contactNow(assigned.id)).assigneeId).toBe(DEMO.members.ana);
    expect((await messagesOf(assigned.id)).map((m) => m.text)).toEqual(['Hi Greet Gus']);

    // Blocked while its run waits; the engine learns it from the CRM's contact.updated event.
    const blocked = await newContact(h, 'Later Bo');
    await eventually(async () => (await runsOf(blocked.id, 'greet-later'))[0]?.status === 'waiting');
    expect((await crm(h, 'POST', `/v1/contacts/${blocked.id}/block`)).status).toBeLessThan(300);
    await eventually(async () => {
      const rows = await db.query(
        `SELECT 1 FROM inbox_events WHERE contact_id = $1 AND type = 'contact.updated' AND status = 'processed'`,
        [blocked.id],
      );
      return rows.length > 0;
    });
    const [bo] = await settledRuns(blocked.id, 'greet-later', 1);
    const send = (await actionsOf(bo.id)).find((a: { type: string }) => a.type === 'send-message');
    expect(send).toMatchObject({ status: 'skipped', reason: 'contact_blocked' });
    expect((await contactNow(blocked.id)).assigneeId).toBeNull();
    expect(await messagesOf(blocked.id)).toEqual([]);
  });

  it('previous_action_failed: a failing action skips the rest of its run', async () => {
    const contact = await newContact(h, 'Fail Fred', { assigneeId: DEMO.members.ana });
    // No conversation and no channel named: the message cannot be sent (no_conversation).
    await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { notes: 'fail' });
    const [run] = await settledRuns(contact.id, 'fail-first', 1);
    expect(run).toMatchObject({ status: 'failed' });
    expect(await actionsOf(run.id)).toEqual([
      expect.objectContaining({ status: 'failed', error_code: 'no_conversation' }),
      expect.objectContaining({ status: 'skipped', reason: 'previous_action_failed' }),
    ]);
    expect((await contactNow(contact.id)).tags).toEqual([]);
  });

  it('busy contact: a second job waits for the first and both complete in order', async () => {
    const contact = await newContact(h, 'Busy Bea', { assigneeId: DEMO.members.ana });
    // The first reaction is held 6 s: the contact stays busy while the second message's job arrives.
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'latency',
      count: 1,
      latencyMs: 6000,
      route: REACT_ROUTE,
    });
    const first = await write(contact.id, 'first');
    const [run1] = await eventually(async () => {
      const runs = await runsOf(contact.id, 'busy-react');
      return runs.length === 1 && (await actionsOf(runs[0].id))[0]?.status === 'running' ? runs : undefined;
    }, 30_000);
    const second = await write(contact.id, 'second');
    // The second run's job finds the contact locked and backs off (busy-backoff.ts), without an attempt.
    const queue = h.app.get<Queue>(getQueueToken(ACTIONS_QUEUE));
    const run2 = await eventually(async () => (await runsOf(contact.id, 'busy-react'))[1], 30_000);
    const waited = await eventually(async () => {
      const job = await queue.getJob(actionJobId(run2.id));
      return job && (job.data.busyWaits ?? 0) >= 1 ? job : undefined;
    }, 30_000);
    expect(waited.attemptsMade).toBe(0);

    const runs = await settledRuns(contact.id, 'busy-react', 2);
    expect(runs.map((r) => [r.id, r.status, r.message_id])).toEqual([
      [run1.id, 'succeeded', first],
      [run2.id, 'succeeded', second],
    ]);
    const [a1] = await actionsOf(run1.id);
    const [a2] = await actionsOf(run2.id);
    expect(a2.started_at.getTime()).toBeGreaterThanOrEqual(a1.finished_at.getTime());
    const reactions = (await messagesOf(contact.id)).map((m) => [m.text, m.reaction]);
    expect(reactions.sort()).toEqual([
      ['first', '👀'],
      ['second', '👀'],
    ]);
  });
});
