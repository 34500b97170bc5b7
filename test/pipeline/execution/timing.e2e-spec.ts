import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { notMatchedFor } from '../../support/not-matched';
import { DataSource } from 'typeorm';
import { ACTIONS_QUEUE, wakeJobId } from '../../../src/runtime/queues/queue-jobs';
import { ENGINE_CLOCK, type EngineClock } from '../../../src/runtime/config/engine-clock';
import { api } from '../../support/http';
import { DEMO } from '../../support/demo-fixture';
import {
  ADMIN_TOKEN,
  crm,
  eventually,
  Harness,
  newContact,
  startHarness,
} from '../../support/engine-harness';

// Waits, windows and limits run by the engine against the sandbox (real Postgres and Redis, real
// webhooks): the automations of issue 13 with their durations shortened. The window test sets the
// engine's clock (ENGINE_CLOCK) instead of waiting for a real minute to come round.

/** The engine's time in the window test: a Monday, an hour before the action window opens. */
const MONDAY_8AM = new Date('2030-01-07T08:00:00.000Z');
const OPENING = new Date('2030-01-07T09:00:00.000Z');
const OPENING_WINDOW = '09:00-09:02';
/** Closed at MONDAY_8AM. */
const CLOSED_WINDOW = '18:00-19:00';

const nameStarts = (prefix: string) => `{ fact: contact.name, operator: startsWith, value: '${prefix}' }`;
interface RunView {
  id: string;
  status: string;
  reason: string | null;
  timeline: { step: string; [k: string]: unknown }[];
}
const TEMPLATE_ROUTE = 'POST /v1/message-templates/send';
const inbound = `{ fact: message.isOutgoing, operator: equal, value: false }`;

const RULES = `
rule: welcome-new-contact
on: contact.created
if: ${nameStarts('Welcome')}
once: per-contact
do:
  - wait: 4s
    unless: { fact: contact.lastInteractionAt, operator: exists, value: true }
  - send-template: { name: welcome, parameters: ['{{contact.name}}'], channel: Main WhatsApp }
    assign-first: round-robin
---
rule: sla-escalation
on: message.created
if: { all: [${inbound}, ${nameStarts('Sla')}] }
do:
  - wait: 8s
    until:
      event: message.created
      where: { fact: message.isOutgoing, operator: equal, value: true }
      same: conversation
  - add-tag: sla-breach
---
rule: refund-triage
on: message.created
if:
  all:
    - ${inbound}
    - ${nameStarts('Refund')}
    - { fact: message.text, operator: ignoreCase:contains, value: Refund }
do:
  - add-tag: refund-requested
---
rule: re-engage-limited
on: message.created
if: { all: [${inbound}, ${nameStarts('Limit')}] }
limit: { max: 2, per: 1w, over: skip }
do:
  - add-tag: re-engaged
---
rule: at-most-twice
on: message.created
if: { all: [${inbound}, ${nameStarts('Most')}] }
at-most: 2
do:
  - add-tag: counted
---
rule: business-hours-only
on: contact.created
if: ${nameStarts('Hours')}
window: { hours: '${CLOSED_WINDOW}', timezone: UTC, outside: skip }
do:
  - add-tag: in-hours
---
rule: when-the-window-opens
on: contact.created
if: ${nameStarts('Window')}
do:
  - add-tag: window-opened
    window: { hours: '${OPENING_WINDOW}', timezone: UTC }
`;

describe('waits, windows and limits at run time', () => {
  let h: Harness;
  let db: DataSource;

  beforeAll(async () => {
    h = await startHarness({ rules: { 'timing.yaml': RULES } });
    db = h.app.get(DataSource);
    // The rules' tags, before any event makes the engine read the tag list.
    for (const name of [
      'welcomed',
      'sla-breach',
      'refund-requested',
      're-engaged',
      'counted',
      'in-hours',
      'window-opened',
    ])
      expect((await crm(h, 'POST', '/v1/tags', { name })).status).toBe(201);
  });
  afterAll(async () => h?.stop());

  const tags = async (contactId: string) =>
    ((await crm(h, 'GET', `/v1/contacts/${contactId}`)).body.tags as { name: string }[]).map((t) => t.name);
  /** The rule's runs for the contact once there are `count` and all have one of `statuses` (not_matched ones only if asked). */
  const runOf = (rule: string, contactId: string, statuses: string[], count = 1, deadlineMs = 40_000) =>
    eventually(
      async () => {
        const all: RunView[] = await db.query(
          `SELECT id, status, reason, timeline FROM runs WHERE rule_id = $1 AND contact_id = $2 ORDER BY created_at`,
          [rule, contactId],
        );
        const rows = all.filter((r) => r.status !== 'not_matched' || statuses.includes('not_matched'));
        return rows.length === count && rows.every((r) => statuses.includes(r.status)) ? rows : undefined;
      },
      deadlineMs,
      100,
    ).catch(async (err) => {
      console.log(
        await db.query(`SELECT rule_id, status, reason, timeline FROM runs WHERE contact_id = $1`, [
          contactId,
        ]),
      );
      throw err;
    });
  const admin = (path: string) => api(h.url, 'GET', path, undefined, { 'x-admin-token': ADMIN_TOKEN });
  const receive = async (contactId: string, text: string) => {
    const res = await api(h.sandboxUrl, 'POST', '/_sandbox/inbound-message', { contactId, text });
    expect(res.status).toBe(201);
    return res.body as { conversation: { id: string }; message: { id: string } };
  };

  it('skips a run outside its window with outside_window, and waits for an action window to open', async () => {
    let now = MONDAY_8AM;
    const clock = jest.spyOn(h.app.get<EngineClock>(ENGINE_CLOCK), 'now').mockImplementation(() => now);
    try {
      const late = await newContact(h, 'Hours Late');
      const early = await newContact(h, 'Window Early');
      const [skipped] = await runOf('business-hours-only', late.id, ['cancelled']);
      expect(skipped.reason).toBe('outside_window');
      expect(await tags(late.id)).not.toContain('in-hours');

      const [waiting] = await runOf('when-the-window-opens', early.id, ['waiting']);
      expect(waiting.timeline.at(-1)).toEqual(
        expect.objectContaining({ step: 'waiting', for: 'window', until: OPENING.toISOString() }),
      );
      // An hour of the engine's clock: the wake job is delayed that long. The clock moves to 09:00
      // and the job is promoted, which is what the hour passing would do.
      const actions = h.app.get<Queue>(getQueueToken(ACTIONS_QUEUE));
      const wake = await actions.getJob(wakeJobId(waiting.id, OPENING));
      expect(await wake?.getState()).toBe('delayed');
      expect(wake!.opts.delay).toBe(OPENING.getTime() - MONDAY_8AM.getTime());
      now = OPENING;
      await wake!.promote();
      const [done] = await runOf('when-the-window-opens', early.id, ['succeeded']);
      expect(done.timeline.map((e: { step: string }) => e.step)).toEqual(['waiting', 'resumed']);
      expect(await tags(early.id)).toContain('window-opened');
    } finally {
      clock.mockRestore();
    }
  });

  it('welcomes a contact after the wait, unless someone wrote to it meanwhile', async () => {
    const sent = async () => (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[TEMPLATE_ROUTE] ?? 0;
    const before = await sent();
    const quiet = await newContact(h, 'Welcome Quiet');
    const talked = await newContact(h, 'Welcome Talked');
    await runOf('welcome-new-contact', talked.id, ['waiting']);
    await receive(talked.id, 'hello?');

    const [done] = await runOf('welcome-new-contact', quiet.id, ['succeeded']);
    const view = (await admin(`/admin/runs/${done.id}`)).body;
    expect(view.timeline.map((e: { step: string }) => e.step)).toEqual(['waiting', 'resumed']);
    expect(view.timeline[0]).toEqual(expect.objectContaining({ for: 'wait', action: 0 }));
    expect(view.actionResults).toEqual([expect.objectContaining({ status: 'succeeded' })]);

    const [cancelled] = await runOf('welcome-new-contact', talked.id, ['cancelled']);
    expect(cancelled.reason).toBe('unless');
    // One template sent: to the contact nobody wrote to.
    expect((await sent()) - before).toBe(1);
    const actions = (await admin(`/admin/runs/${cancelled.id}`)).body.actionResults;
    expect(actions).toEqual([expect.objectContaining({ status: 'skipped', reason: 'unless' })]);
  }, 90_000);

  it('cancels a waiting run when its contact is deleted', async () => {
    const gone = await newContact(h, 'Sla Gone');
    await receive(gone.id, 'hello?');
    await runOf('sla-escalation', gone.id, ['waiting']);
    expect((await crm(h, 'DELETE', `/v1/contacts/${gone.id}`)).status).toBeLessThan(300);
    const [cancelled] = await runOf('sla-escalation', gone.id, ['cancelled']);
    expect(cancelled.reason).toBe('contact_deleted');
    // Cancelled by the contact.deleted event, not found missing when the wait ended.
    expect(cancelled.timeline.at(-1)).toEqual(expect.objectContaining({ detail: 'the contact was deleted' }));
  });

  it('escalates an inbound message nobody answered in its conversation, not one that got a reply', async () => {
    const ignored = await newContact(h, 'Sla Ignored');
    const answered = await newContact(h, 'Sla Answered', { assigneeId: DEMO.members.ana });
    await receive(ignored.id, 'anyone there?');
    const { conversation } = await receive(answered.id, 'anyone there?');
    await runOf('sla-escalation', answered.id, ['waiting']);
    const reply = await crm(h, 'POST', '/v1/messages', {
      conversationId: conversation.id,
      contactId: answered.id,
      text: 'Here, how can we help?',
    });
    expect(reply.status).toBe(201);

    const [cancelled] = await runOf('sla-escalation', answered.id, ['cancelled']);
    expect(cancelled.reason).toBe('until_event');
    expect(cancelled.timeline.at(-1)).toEqual(
      expect.objectContaining({ step: 'cancelled', reason: 'until_event', action: 0 }),
    );
    await runOf('sla-escalation', ignored.id, ['succeeded']);
    expect(await tags(ignored.id)).toContain('sla-breach');
    expect(await tags(answered.id)).not.toContain('sla-breach');
  }, 90_000);

  it("tags messages that contain 'Refund' in any case (upper, lower, mixed), not others", async () => {
    const texts = { Upper: 'I would like a REFUND for my order', Lower: 'refund please', Mixed: 'a rEfUnD?' };
    const asking = [];
    for (const [name, text] of Object.entries(texts)) {
      const contact = await newContact(h, `Refund ${name}`);
      await receive(contact.id, text);
      asking.push(contact);
    }
    const other = await newContact(h, 'Refund Other');
    await receive(other.id, 'Where is my order?');
    for (const contact of asking) {
      await runOf('refund-triage', contact.id, ['succeeded']);
      expect(await tags(contact.id)).toContain('refund-requested');
    }
    await notMatchedFor(h, db, 'refund-triage', other.id);
    expect(await tags(other.id)).not.toContain('refund-requested');
  });

  it('runs a rule at most `max` times per period across contacts, skipping the rest with a reason', async () => {
    const contacts = [];
    for (const n of [1, 2, 3]) contacts.push(await newContact(h, `Limit ${n}`));
    for (const c of contacts) await receive(c.id, 'hi');
    const runs: RunView[] = [];
    for (const c of contacts)
      runs.push(...(await runOf('re-engage-limited', c.id, ['succeeded', 'cancelled'])));
    expect(runs.map((r) => r.status).sort()).toEqual(['cancelled', 'succeeded', 'succeeded']);
    expect(runs.find((r) => r.status === 'cancelled')?.reason).toBe('rate_limited');
  }, 60_000);

  it('runs a rule at most N times per contact, then suppresses it', async () => {
    const contact = await newContact(h, 'Most Often');
    for (const n of [1, 2, 3]) {
      await receive(contact.id, `message ${n}`);
      await runOf('at-most-twice', contact.id, ['succeeded', 'suppressed'], n);
    }
    const runs = await runOf('at-most-twice', contact.id, ['succeeded', 'suppressed'], 3);
    expect(runs.map((r) => [r.status, r.reason])).toEqual([
      ['succeeded', null],
      ['succeeded', null],
      ['suppressed', 'at_most_per_contact'],
    ]);
  }, 60_000);
});
