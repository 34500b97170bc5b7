import { DataSource } from 'typeorm';
import { DEMO } from '../../support/demo-fixture';
import { crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';

// Issue 34, goal 3: `Hi {{contact.firstName}}` rendered `Hi ` for a contact without the field. With a
// `default` filter the CRM receives "Hi there"; a contact that has the field gets its value,
// through `upcase`, and an absent date falls through `date` to its default.
describe('template defaults and filters, end to end', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'greet.yaml': [
          'rule: greet',
          'on: contact.created',
          'do:',
          `  - send-message: { text: 'Hi {{contact.customFields.firstName | default: "there"}} / {{contact.name | upcase}} / {{contact.lastInteractionAt | date: "yyyy" | default: "never"}}', channel: Main WhatsApp }`,
          '',
        ].join('\n'),
      },
    });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const sentTexts = async (contactId: string): Promise<string[]> => {
    const conversations = await crm(h, 'GET', `/v1/conversations?contactId=${contactId}&limit=100`);
    const texts: string[] = [];
    for (const c of conversations.body.data as { id: string }[]) {
      const page = await crm(h, 'GET', `/v1/messages?conversationId=${c.id}&limit=100`);
      for (const m of page.body.data as { text: string | null; isOutgoing: boolean }[])
        if (m.isOutgoing && m.text !== null) texts.push(m.text);
    }
    return texts;
  };

  it('sends "Hi there" to a contact without a first name', async () => {
    const contact = await newContact(h, 'Fil Ter', { assigneeId: DEMO.members.ana });
    const db = h.app.get(DataSource);
    const status = await eventually(async () => {
      const rows: { status: string }[] = await db.query(
        `SELECT status FROM runs WHERE contact_id = $1 AND rule_id = 'greet' AND status IN ('succeeded', 'failed', 'dead')`,
        [contact.id],
      );
      return rows[0]?.status;
    }, 60_000);
    expect(status).toBe('succeeded');
    expect(await sentTexts(contact.id)).toEqual(['Hi there / FIL TER / never']);
  }, 90_000);
});
