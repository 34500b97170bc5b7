// Replay treats maybe-sent as sent: an original message left `uncertain` (its outcome unknown) or
// `running` (a call began, the process may have died after the CRM took it) may have reached the
// customer. A replay without force skips it like a sent one; the forced-replay confirmation (console)
// and the admin API's answer name it. Before, only `succeeded` was skipped and none was listed.
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

describe('replay treats maybe-sent as sent', () => {
  let h: Harness;
  let db: DataSource;

  beforeAll(async () => {
    h = await startHarness({ rules: RULES });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  const welcomeRuns = (contactId: string, count: number) =>
    eventually(async () => {
      const runs = await db.query(
        `SELECT id, status, trigger_key FROM runs WHERE contact_id = $1 AND rule_id = 'welcome'
          AND status NOT IN ('suppressed', 'not_matched') ORDER BY created_at`,
        [contactId],
      );
      return runs.length === count && runs.every((r: { status: string }) => r.status === 'succeeded')
        ? runs
        : undefined;
    }, 60_000);
  const sendOf = async (runId: string) =>
    (
      await db.query(
        `SELECT status, reason, error_message AS detail FROM action_results WHERE run_id = $1 AND action_index = 0`,
        [runId],
      )
    )[0];

  /** A contact whose welcome went out, its send then marked `status` as a crash or an unclear answer leaves it. */
  async function originalLeft(status: 'uncertain' | 'running', name: string) {
    const member = (await crm(h, 'GET', '/v1/users')).body.data[0].id;
    const contact = await newContact(h, name, { assigneeId: member });
    await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { notes: 'welcome' });
    const [original] = await welcomeRuns(contact.id, 1);
    await db.query(`UPDATE action_results SET status = $2 WHERE run_id = $1 AND action_index = 0`, [
      original.id,
      status,
    ]);
    return { contactId: contact.id, eventId: original.trigger_key.slice('event:'.length) as string };
  }

  it.each(['uncertain', 'running'] as const)(
    'skips a %s original on replay and names it in the forced confirmation',
    async (status) => {
      const { contactId, eventId } = await originalLeft(status, `Maybe ${status}`);

      const web = await consoleLogIn(h.url);
      await web.get('/console/failures');
      const confirm = await web.post('/console/failures/events', { eventId, force: 'yes' });
      expect(confirm.status).toBe(200);
      expect(confirm.html).toContain(`welcome: send-message`);
      expect(confirm.html).toContain(`(maybe sent: ${status})`);

      const replayed = await admin(h, 'POST', `/admin/events/${eventId}/replay`);
      expect(replayed.body).toMatchObject({
        force: false,
        skipped: [{ ruleId: 'welcome', contactId, type: 'send-message', status }],
      });
      const [, replay] = await welcomeRuns(contactId, 2);
      expect(await sendOf(replay.id)).toMatchObject({
        status: 'skipped',
        reason: 'already_sent_for_trigger',
        detail: expect.stringContaining(`maybe sent (${status})`),
      });

      const forced = await admin(h, 'POST', `/admin/events/${eventId}/replay?force=true`);
      expect(forced.body).toMatchObject({
        force: true,
        sentAgain: [{ ruleId: 'welcome', contactId, type: 'send-message', status }],
      });
    },
  );
});
