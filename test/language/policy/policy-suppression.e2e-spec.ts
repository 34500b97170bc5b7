import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DEMO } from '../../support/demo-fixture';
import { api } from '../../support/http';
import { crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { storedEventsOf } from '../../support/stored-events';

const RECIPES = join(__dirname, '..', '..', '..', 'recipes');
const marketing = (id: string) =>
  [
    `rule: ${id}`,
    'on: contact.updated',
    'category: marketing',
    'if: { fact: contact, operator: hasTag, value: promo }',
    'do:',
    `  - send-message: { text: "${id} offer", channel: Main WhatsApp }`,
    '',
  ].join('\n');

interface ActionRow {
  rule_id: string;
  status: string;
  reason: string | null;
}

// Issue 33, goal 1 (must show): the policy's suppressions hold every rule's messages, whatever the
// rule says: a contact tagged `opted-out` gets none of three rules' marketing messages and still
// its receipt (a service message crosses a marketing opt-out); STOP from the customer (the
// sandbox's inbound message) tags the contact and confirms once; a global suppression
// (`do-not-contact`) holds the receipt too. The recipes' policy and STOP/START rules, as shipped
// in recipes/.
describe('suppression in the messaging policy, end to end', () => {
  let h: Harness;
  let db: DataSource;
  const tagIds: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'policy.yaml': readFileSync(join(RECIPES, 'policy', 'policy.yaml'), 'utf8'),
        // The segment the policy's suppression names (unknown-segment without it).
        'lapsed-customers.yaml': readFileSync(join(RECIPES, 'policy', 'lapsed-customers.yaml'), 'utf8'),
        'stop-start.yaml': readFileSync(join(RECIPES, 'stop-start.yaml'), 'utf8'),
        'offer-a.yaml': marketing('offer-a'),
        'offer-b.yaml': marketing('offer-b'),
        'offer-c.yaml': marketing('offer-c'),
        'receipt.yaml': [
          'rule: receipt',
          'on: contact.updated',
          'category: service',
          'if: { fact: contact, operator: hasTag, value: promo }',
          'do:',
          '  - send-message: { text: "your receipt", channel: Main WhatsApp }',
          '',
        ].join('\n'),
      },
    });
    db = h.app.get(DataSource);
    for (const name of ['promo', 'opted-out']) {
      const tag = await crm(h, 'POST', '/v1/tags', { name });
      expect(tag.status).toBe(201);
      tagIds[name] = tag.body.id;
    }
  }, 120_000);
  afterAll(async () => h?.stop());

  const settledActions = (contactId: string, count: number) =>
    eventually(async () => {
      const rows: ActionRow[] = await db.query(
        `SELECT r.rule_id, a.status, a.reason FROM runs r JOIN action_results a ON a.run_id = r.id
          WHERE r.contact_id = $1 AND a.status NOT IN ('pending', 'running') ORDER BY r.rule_id`,
        [contactId],
      );
      return rows.length >= count ? rows : undefined;
    }, 60_000);

  it('an opted-out contact gets no marketing message from three rules and still its receipt', async () => {
    const contact = await newContact(h, 'Olga Optout', {
      assigneeId: DEMO.members.ana,
      tagIds: [tagIds['opted-out']],
    });
    const res = await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, {
      tagIds: [tagIds['opted-out'], tagIds.promo],
    });
    expect(res.status).toBe(200);
    const rows = await settledActions(contact.id, 4);
    expect(rows).toEqual([
      { rule_id: 'offer-a', status: 'skipped', reason: 'suppressed' },
      { rule_id: 'offer-b', status: 'skipped', reason: 'suppressed' },
      { rule_id: 'offer-c', status: 'skipped', reason: 'suppressed' },
      { rule_id: 'receipt', status: 'succeeded', reason: null },
    ]);
    // Recorded like every skip, with the policy's words.
    const [detail] = await db.query(
      `SELECT a.error_message FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.contact_id = $1 AND r.rule_id = 'offer-a'`,
      [contact.id],
    );
    expect(detail.error_message).toBe('tag opted-out (holds marketing); category marketing');
  });

  it('a global suppression (do-not-contact) holds the receipt too: no category crosses it', async () => {
    const tag = await crm(h, 'POST', '/v1/tags', { name: 'do-not-contact' });
    expect(tag.status).toBe(201);
    const contact = await newContact(h, 'Dora Donot', {
      assigneeId: DEMO.members.ana,
      tagIds: [tag.body.id],
    });
    const res = await crm(h, 'PATCH', `/v1/contacts/${contact.id}`, { tagIds: [tag.body.id, tagIds.promo] });
    expect(res.status).toBe(200);
    const rows = await settledActions(contact.id, 4);
    expect(rows).toEqual(
      ['offer-a', 'offer-b', 'offer-c', 'receipt'].map((rule_id) => ({
        rule_id,
        status: 'skipped',
        reason: 'suppressed',
      })),
    );
    const [receipt] = await db.query(
      `SELECT a.error_message FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.contact_id = $1 AND r.rule_id = 'receipt'`,
      [contact.id],
    );
    expect(receipt.error_message).toBe('tag do-not-contact; category service');
  });

  it('STOP from the customer opts out and confirms once; a second STOP is not confirmed', async () => {
    const contact = await newContact(h, 'Stella Stop', { assigneeId: DEMO.members.ana });
    const outgoing = async () =>
      (await db.query(
        `SELECT a.status FROM runs r JOIN action_results a ON a.run_id = r.id
          WHERE r.contact_id = $1 AND a.action->>'type' = 'send-message' AND a.status = 'succeeded'`,
        [contact.id],
      )) as unknown[];
    const stop = await api(h.sandboxUrl, 'POST', '/_sandbox/inbound-message', {
      contactId: contact.id,
      text: 'Stop',
    });
    expect(stop.status).toBe(201);
    await eventually(async () => ((await outgoing()).length === 1 ? true : undefined), 60_000);
    const tags = async () =>
      ((await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags as { name: string }[]).map(
        (t) => t.name,
      );
    expect(await tags()).toContain('opted-out');
    const again = await api(h.sandboxUrl, 'POST', '/_sandbox/inbound-message', {
      contactId: contact.id,
      text: 'STOP',
    });
    expect(again.status).toBe(201);
    // The second STOP's run is evaluated (not matched: the contact carries the tag) and sends nothing.
    await eventually(async () => {
      const inbound = (await storedEventsOf(db, contact.id)).filter(
        (e) =>
          e.type === 'message.created' && e.status === 'processed' && e.payload.data?.isOutgoing === false,
      );
      return inbound.length >= 2 ? true : undefined;
    }, 60_000);
    expect(await outgoing()).toHaveLength(1);
  });
});
