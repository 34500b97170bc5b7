import { DEMO } from '../../support/demo-fixture';
import { api } from '../../support/http';
import { admin, crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';

const MESSAGES = 'POST /v1/messages';
const TEMPLATES = 'POST /v1/message-templates/send';

interface RunView {
  id: string;
  status: string;
  timeline: { step: string; label?: string; reason?: string; failure?: { reason: string; class: string } }[];
  actionResults: { status: string; reason: string | null }[];
}

// Issue 34, goal 1: a failed action ended the rule (previous_action_failed), with no fallback. A
// message the CRM refuses (a 422, as outside its messaging window) now takes the action's
// `on-failure:` arm: the approved template goes out once, then the run goes on.
describe('on-failure: the steps of an action that ended failed', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'greet.yaml': [
          'rule: greet-or-template',
          'on: contact.created',
          'do:',
          "  - send-message: { text: 'Hi {{contact.name}}', channel: Main WhatsApp }",
          '    on-failure:',
          // The arm reads why the message failed (failure.reason / failure.class).
          "      - send-template: { name: welcome, parameters: ['{{contact.name}} ({{failure.reason}}, {{failure.class}})'], channel: Main WhatsApp }",
          '      - add-tag: fallback-sent',
          '  - add-tag: greeted',
          '',
        ].join('\n'),
      },
    });
    for (const name of ['fallback-sent', 'greeted'])
      expect((await crm(h, 'POST', '/v1/tags', { name })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const counters = async () =>
    (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body as Record<string, number>;
  const finishedRun = (contactId: string) =>
    eventually(async () => {
      const list = (await admin(h, 'GET', `/admin/runs?contact=${contactId}`)).body.data as {
        id: string;
        status: string;
      }[];
      const run = list.find((r) => ['succeeded', 'failed', 'dead', 'uncertain'].includes(r.status));
      return run && ((await admin(h, 'GET', `/admin/runs/${run.id}`)).body as RunView);
    }, 60_000);
  const sentTexts = async (contactId: string) => {
    const conversations = (await crm(h, 'GET', `/v1/conversations?contactId=${contactId}`)).body.data as {
      id: string;
    }[];
    const texts: string[] = [];
    for (const c of conversations) {
      const page = await crm(h, 'GET', `/v1/messages?conversationId=${c.id}&limit=100`);
      for (const m of page.body.data as { text: string | null; isOutgoing: boolean }[])
        if (m.isOutgoing && m.text) texts.push(m.text);
    }
    return texts;
  };
  const tagsOf = async (id: string) =>
    ((await crm(h, 'GET', `/v1/contacts/${id}`)).body.tags as { name: string }[]).map((t) => t.name).sort();

  it('a message refused by the CRM takes on-failure: the template goes out once, the run goes on', async () => {
    const before = await counters();
    const armed = await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'refuse422',
      route: MESSAGES,
      count: 1,
    });
    expect(armed.status).toBeLessThan(300);
    const contact = await newContact(h, 'Fallback Fay', { assigneeId: DEMO.members.ana });
    const run = await finishedRun(contact.id);
    expect(run.status).toBe('succeeded');
    expect(run.actionResults.map((a) => a.reason ?? a.status)).toEqual([
      'outside_messaging_window',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    expect(run.actionResults[0].status).toBe('failed');
    expect(run.timeline.filter((e) => e.step === 'branch').map((e) => e.label)).toEqual(['on-failure']);
    // The reason as the failed row records it, kept on the branch entry: a retry renders the same.
    expect(run.timeline.find((e) => e.label === 'on-failure')?.failure).toEqual({
      reason: 'outside_messaging_window',
      class: 'failed',
    });
    expect(await sentTexts(contact.id)).toEqual([
      'Hello Fallback Fay (outside_messaging_window, failed), welcome to Demo Co!',
    ]);
    const after = await counters();
    expect((after[TEMPLATES] ?? 0) - (before[TEMPLATES] ?? 0)).toBe(1);
    expect((after[MESSAGES] ?? 0) - (before[MESSAGES] ?? 0)).toBe(1); // the refused attempt, not retried
    expect(await tagsOf(contact.id)).toEqual(['fallback-sent', 'greeted']);
  }, 90_000);

  it('a message that goes out skips the on-failure steps', async () => {
    const before = await counters();
    const contact = await newContact(h, 'Direct Dan', { assigneeId: DEMO.members.ana });
    const run = await finishedRun(contact.id);
    expect(run.status).toBe('succeeded');
    expect(run.actionResults.map((a) => a.reason ?? a.status)).toEqual([
      'succeeded',
      'branch_not_taken',
      'branch_not_taken',
      'succeeded',
    ]);
    const after = await counters();
    expect((after[TEMPLATES] ?? 0) - (before[TEMPLATES] ?? 0)).toBe(0);
    expect(await tagsOf(contact.id)).toEqual(['greeted']);
  }, 90_000);

  it('an unclear send (a 500: the message may be out) never takes on-failure', async () => {
    const before = await counters();
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', { kind: 'error500', route: MESSAGES, count: 1 });
    const contact = await newContact(h, 'Unclear Una', { assigneeId: DEMO.members.ana });
    const run = await finishedRun(contact.id);
    expect(run.timeline.filter((e) => e.step === 'branch').map((e) => e.label)).not.toContain('on-failure');
    const after = await counters();
    expect((after[TEMPLATES] ?? 0) - (before[TEMPLATES] ?? 0)).toBe(0);
    expect(await tagsOf(contact.id)).not.toContain('fallback-sent');
  }, 90_000);
});

// on-failure of a `call:`: any action of the called list failing takes the arm, and the rest of
// the list is skipped (as arm `call`); the run goes on after the arm.
describe('on-failure of a call: a step list cut short by a refused message', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'handoff.yaml': [
          'rule: handoff-or-flag',
          'on: contact.created',
          'do:',
          '  - call: greet-and-tag',
          '    on-failure:',
          "      - set-field: { key: company, value: 'refused: {{failure.reason}}' }",
          '      - add-tag: handoff-failed',
          '  - add-tag: handoff-done',
          '',
        ].join('\n'),
        'greet-steps.yaml': [
          'steps: greet-and-tag',
          'do:',
          "  - send-message: { text: 'Hello {{contact.name}}', channel: Main WhatsApp }",
          '  - add-tag: greeted-by-list',
          '',
        ].join('\n'),
      },
    });
    for (const name of ['handoff-failed', 'handoff-done', 'greeted-by-list'])
      expect((await crm(h, 'POST', '/v1/tags', { name })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const finishedRun = (contactId: string) =>
    eventually(async () => {
      const list = (await admin(h, 'GET', `/admin/runs?contact=${contactId}`)).body.data as {
        id: string;
        status: string;
      }[];
      const run = list.find((r) => ['succeeded', 'failed', 'dead', 'uncertain'].includes(r.status));
      return run && ((await admin(h, 'GET', `/admin/runs/${run.id}`)).body as RunView);
    }, 60_000);
  const contactOf = async (id: string) =>
    (await crm(h, 'GET', `/v1/contacts/${id}`)).body as {
      tags: { name: string }[];
      customFields?: Record<string, unknown>;
    };

  it('the refused message takes the call arm, the list tag is skipped, the run goes on', async () => {
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', { kind: 'refuse422', route: MESSAGES, count: 1 });
    const contact = await newContact(h, 'Handoff Hal', { assigneeId: DEMO.members.ana });
    const run = await finishedRun(contact.id);
    expect(run.status).toBe('succeeded');
    expect(run.actionResults.map((a) => a.reason ?? a.status)).toEqual([
      'outside_messaging_window',
      'branch_not_taken', // greeted-by-list: the rest of the list
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    expect(run.timeline.find((e) => e.label === 'on-failure')?.failure).toEqual({
      reason: 'outside_messaging_window',
      class: 'failed',
    });
    const after = await contactOf(contact.id);
    expect(after.tags.map((t) => t.name).sort()).toEqual(['handoff-done', 'handoff-failed']);
    expect(JSON.stringify(after.customFields)).toContain('refused: outside_messaging_window');
  }, 90_000);

  it('a list that goes through skips the arm', async () => {
    const contact = await newContact(h, 'Handoff Hana', { assigneeId: DEMO.members.ana });
    const run = await finishedRun(contact.id);
    expect(run.status).toBe('succeeded');
    expect(run.actionResults.map((a) => a.reason ?? a.status)).toEqual([
      'succeeded',
      'succeeded',
      'branch_not_taken',
      'branch_not_taken',
      'succeeded',
    ]);
    const after = await contactOf(contact.id);
    expect(after.tags.map((t) => t.name).sort()).toEqual(['greeted-by-list', 'handoff-done']);
  }, 90_000);
});
