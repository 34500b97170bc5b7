import { DataSource } from 'typeorm';
import { crm, eventually, Harness, newContact, startHarness } from '../support/engine-harness';

// The foundation's thin path through every layer: sandbox creates a contact → signed
// contact.created over HTTP → intake → Postgres → events queue → rule → actions queue →
// gateway → sandbox; then the contact read back from the sandbox carries the tag.
describe('thin path: a signed event, a YAML rule, a CRM write', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'auto-tag.yaml': [
          'rule: tag-new-contacts',
          'on: contact.created',
          'do:',
          '  - add-tag: new-contact',
          '',
        ].join('\n'),
      },
    });
  });
  afterAll(async () => h?.stop());

  it('tags a contact created in the sandbox', async () => {
    const contactId = (await newContact(h, 'Eve Example')).id as string;

    const tagged = await eventually(async () => {
      const res = await crm(h, 'GET', `/v1/contacts/${contactId}`);
      return res.body.tags?.some((t: { name: string }) => t.name === 'new-contact') ? res.body : undefined;
    });
    expect(tagged.id).toBe(contactId);

    const db = h.app.get(DataSource);
    const runs = await eventually(async () => {
      const rows = await db.query(`SELECT id, status, rule_id FROM runs WHERE contact_id = $1`, [contactId]);
      return rows.length && rows[0].status === 'succeeded' ? rows : undefined;
    });
    expect(runs).toEqual([expect.objectContaining({ rule_id: 'tag-new-contacts', status: 'succeeded' })]);
    const results = await db.query(`SELECT status, action FROM action_results WHERE run_id = $1`, [
      runs[0].id,
    ]);
    expect(results).toEqual([{ status: 'succeeded', action: { type: 'add-tag', tag: 'new-contact' } }]);
  });
});
