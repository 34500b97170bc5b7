// Replaying a processed event never repeats a customer message by default: the welcome its rule
// sent is skipped (`already_sent_for_trigger`); with `force` it goes out exactly once more. The
// console's replay form refuses a processed event unless forced, and its confirmation lists the
// messages that will go out again.
import { DataSource } from 'typeorm';
import { admin, crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { consoleLogIn } from '../../support/console-client';

jest.setTimeout(120_000);

const RULES = {
  'welcome.yaml': `
rule: welcome
on: contact.updated
if: { fact: contact.notes, operator: equal, value: "welcome" }
do:
  - send-message: { text: "Welcome {{contact.name}}", channel: Main WhatsApp }
  - add-tag: thanked
`,
};

describe('replay of a processed event whose rule sends a welcome', () => {
  let h: Harness;
  let db: DataSource;

  beforeAll(async () => {
    h = await startHarness({ rules: RULES });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  const welcomes = async (contactId: string) => {
    const convs = (await crm(h, 'GET', `/v1/conversations?contactId=${contactId}`)).body.data;
    let n = 0;
    for (const c of convs)
      for (const m of (await crm(h, 'GET', `/v1/messages?conversationId=${c.id}`)).body.data)
        if (m.isOutgoing && String(m.text).startsWith('Welcome')) n++;
    return n;
  };
  const finishedRuns = (contactId: string, count: number) =>
    eventually(async () => {
      const runs = await db.query(
        `SELECT r.id, r.status, r.trigger_key FROM runs r WHERE r.contact_id = $1 AND r.rule_id = 'welcome'
          AND r.status NOT IN ('suppressed', 'not_matched')
          ORDER BY r.created_at`,
        [contactId],
      );
      return runs.length === count && runs.every((r: { status: string }) => r.status === 'succeeded')
        ? runs
        : undefined;
    }, 60_000);
  const actionsOf = (runId: string) =>
    db.query(
      `SELECT action ->> 'type' AS type, status, reason FROM action_results WHERE run_id = $1 ORDER BY action_index`,
      [runId],
    );

  it('sends no second welcome without force, exactly one more with it', async () => {
    const member = (await crm(h, 'GET', '/v1/users')).body.data[0].id;
    const contact = await newContact(h, 'Wendy Welcome', { assigneeId: member });
    await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { notes: 'welcome' });
    const [original] = await finishedRuns(contact.id, 1);
    expect(await welcomes(contact.id)).toBe(1);
    const eventId = original.trigger_key.slice('event:'.length);

    // Console: a processed event is refused without force; with it, the confirmation lists the welcome.
    const web = await consoleLogIn(h.url);
    await web.get('/console/failures');
    expect((await web.post('/console/failures/events', { eventId })).status).toBe(400);
    const confirm = await web.post('/console/failures/events', { eventId, force: 'yes' });
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('welcome: send-message');

    // Admin API without force: the welcome is skipped, the rest of the run goes on.
    expect((await admin(h, 'POST', `/admin/events/${eventId}/replay`)).body).toMatchObject({
      reset: false,
      force: false,
    });
    const [, replay] = await finishedRuns(contact.id, 2);
    expect(await actionsOf(replay.id)).toEqual([
      { type: 'send-message', status: 'skipped', reason: 'already_sent_for_trigger' },
      expect.objectContaining({ type: 'add-tag' }),
    ]);
    expect(await welcomes(contact.id)).toBe(1);

    // With force: exactly one more.
    expect((await admin(h, 'POST', `/admin/events/${eventId}/replay?force=true`)).body).toMatchObject({
      force: true,
    });
    const [, , forced] = await finishedRuns(contact.id, 3);
    expect((await actionsOf(forced.id))[0]).toMatchObject({ type: 'send-message', status: 'succeeded' });
    expect(await welcomes(contact.id)).toBe(2);
  });
});
