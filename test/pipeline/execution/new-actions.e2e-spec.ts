// The actions of the catalogue's second round against the sandbox, end to end: a signed event,
// the rule, the gateway, the CRM's state read back. Nothing mocked.
import { DataSource } from 'typeorm';
import { crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { api } from '../../support/http';

jest.setTimeout(90_000);

const RULES = {
  // Five rules of one event whose priority order (o2, o4, o3, o1, o5: ties keep file order) is
  // neither file order nor its reverse, nor what an unstable sort of the ties gives.
  'order-1.yaml': `
rule: o1-low
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Order" }
priority: 1
do: [{ add-tag: customer }]
`,
  'order-2.yaml': `
rule: o2-high
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Order" }
priority: 10
do: [{ add-tag: vip }]
`,
  'order-3.yaml': `
rule: o3-mid
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Order" }
priority: 5
do: [{ add-tag: dormant }]
`,
  'order-4.yaml': `
rule: o4-high
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Order" }
priority: 10
do: [{ add-tag: thanked }]
`,
  'order-5.yaml': `
rule: o5-low
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Order" }
priority: 1
do: [{ add-tag: new-contact }]
`,
  'welcome.yaml': `
rule: welcome-template
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Welcome" }
do:
  - send-template: { name: welcome, parameters: ["{{contact.name}}"], channel: Main WhatsApp }
    assign-first: round-robin
`,
  'fields.yaml': `
rule: enrich
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Field" }
do:
  - set-field: { key: plan, value: Pro }
  - set-field: { key: company, value: "{{contact.name}} Inc" }
  - update-contact: { email: "lead@example.com", status: archived }
  - unassign
`,
  'chat.yaml': `
rule: follow-up
on: contact.updated
if:
  all:
    - { fact: contact.name, operator: matches, value: "^Chat" }
    - { fact: contact.notes, operator: equal, value: "follow up" }
do:
  - send-message: "Hi {{contact.name}}, following up"
`,
};

describe('new actions against the sandbox', () => {
  let h: Harness;
  let db: DataSource;

  beforeAll(async () => {
    h = await startHarness({ rules: RULES });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  const actionsOf = (contactId: string, ruleId: string) =>
    eventually(async () => {
      const rows = await db.query(
        `SELECT a.status, a.reason, a.error_code, r.status AS run_status FROM action_results a
           JOIN runs r ON r.id = a.run_id WHERE r.contact_id = $1 AND r.rule_id = $2 ORDER BY a.action_index`,
        [contactId, ruleId],
      );
      return rows.length && !['pending', 'running'].includes(rows[0].run_status) ? rows : undefined;
    });
  const messagesOf = async (contactId: string) => {
    const convs = await crm(h, 'GET', `/v1/conversations?contactId=${contactId}`);
    const all = [];
    for (const c of convs.body.data)
      all.push(...(await crm(h, 'GET', `/v1/messages?conversationId=${c.id}`)).body.data);
    return all;
  };

  it('greets a new contact without assignee: assigns first, then sends the approved template once', async () => {
    const contact = await newContact(h, 'Welcome Wendy');
    expect(contact.assigneeId).toBeNull();
    expect(await actionsOf(contact.id, 'welcome-template')).toEqual([
      expect.objectContaining({ status: 'succeeded', run_status: 'succeeded' }),
    ]);
    const after = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body;
    expect(after.assigneeId).toEqual(expect.any(String));
    const messages = await messagesOf(contact.id);
    expect(messages).toEqual([
      expect.objectContaining({
        type: 'template',
        isOutgoing: true,
        text: 'Hello Welcome Wendy, welcome to Demo Co!',
      }),
    ]);
  });

  it('sets custom fields by key (select options by label), updates and unassigns the contact', async () => {
    const member = (await crm(h, 'GET', '/v1/users')).body.data[0].id;
    const contact = await newContact(h, 'Field Frank', { assigneeId: member });
    const rows = await actionsOf(contact.id, 'enrich');
    expect(rows.map((r: { status: string }) => r.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    const after = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body;
    const fields = (await crm(h, 'GET', '/v1/custom-fields')).body.data;
    const pro = fields
      .find((f: { fieldKey: string }) => f.fieldKey === 'plan')
      .options.find((o: { label: string }) => o.label === 'Pro');
    expect(after).toMatchObject({
      customFields: { plan: pro.id, company: 'Field Frank Inc' },
      email: 'lead@example.com',
      status: 'archived',
      assigneeId: null,
    });
  });

  it('messages a contact from a contact rule in its last conversation, and fails visibly without one', async () => {
    const member = (await crm(h, 'GET', '/v1/users')).body.data[0].id;
    const talked = await newContact(h, 'Chat Carla', { assigneeId: member });
    await api(h.sandboxUrl, 'POST', '/_sandbox/inbound-message', { contactId: talked.id, text: 'hello?' });
    await crm(h, 'PATCH', `/v1/contacts/${talked.id}`, { notes: 'follow up' });
    expect(await actionsOf(talked.id, 'follow-up')).toEqual([
      expect.objectContaining({ status: 'succeeded' }),
    ]);
    const texts = (await messagesOf(talked.id)).map((m: { text: string }) => m.text);
    expect(texts).toEqual(['Hi Chat Carla, following up', 'hello?']);

    const silent = await newContact(h, 'Chat Silent', { assigneeId: member });
    await crm(h, 'PATCH', `/v1/contacts/${silent.id}`, { notes: 'follow up' });
    expect(await actionsOf(silent.id, 'follow-up')).toEqual([
      expect.objectContaining({ status: 'failed', error_code: 'no_conversation', run_status: 'failed' }),
    ]);
    expect(await messagesOf(silent.id)).toEqual([]);
  });

  it('runs the rules of one event in priority order, not file or random order', async () => {
    const contact = await newContact(h, 'Order Olga');
    for (const rule of ['o1-low', 'o2-high', 'o3-mid', 'o4-high', 'o5-low'])
      await actionsOf(contact.id, rule);
    const order = await db.query(
      `SELECT r.rule_id FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.contact_id = $1 ORDER BY a.started_at`,
      [contact.id],
    );
    expect(order.map((r: { rule_id: string }) => r.rule_id)).toEqual([
      'o2-high',
      'o4-high',
      'o3-mid',
      'o1-low',
      'o5-low',
    ]);
  });
});
