import { DataSource } from 'typeorm';
import { holdoutPoint } from '../../../src/language/policy/holdout';
import { api } from '../../support/http';
import { eventually, Harness, newContact, startHarness } from '../../support/engine-harness';

const CONTACTS = 1000;
const SALT = 'e2e-holdout';
const MESSAGE_ROUTE = 'POST /v1/messages';

// Issue 33, goal 3 (must show): a global control group of 10% declared in policy.yaml, over 1,000
// contacts created in the CRM, each messaged by a rule: the engine holds out a share within 4 sigma
// of 100, exactly the contacts the hash names, and none of them gets the message (`holdout`).
// The contacts have no assignee, so the others' message stops at its guard (`needs_assignee`,
// after the policy): no CRM write at all, and 1,000 runs stay quick.
describe('the global control group, end to end', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'policy.yaml': `holdout: { percent: 10, salt: ${SALT} }\n`,
        'hello.yaml':
          'rule: hello\non: contact.created\ndo:\n  - send-message: { text: Hello, channel: Main WhatsApp }\n',
      },
      // The test creates 1,000 contacts through the API: above the CRM's 300 a minute.
      sandbox: { rateLimit: { limit: 10_000, windowMs: 60_000 } },
    });
  }, 120_000);
  afterAll(async () => h?.stop());

  it('holds out 10% of 1,000 contacts within 4 sigma, the hashed ones, and sends them nothing', async () => {
    const counters = async () =>
      (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[MESSAGE_ROUTE] ?? 0;
    const before = await counters();
    const ids: string[] = [];
    for (let i = 0; i < CONTACTS; i++) ids.push((await newContact(h, `Holdout ${i}`)).id);
    const db = h.app.get(DataSource);
    const rows = await eventually(
      async () => {
        const settled: { contact_id: string; status: string; reason: string }[] = await db.query(
          `SELECT r.contact_id, a.status, a.reason FROM runs r JOIN action_results a ON a.run_id = r.id
            WHERE r.rule_id = 'hello' AND r.contact_id = ANY($1::text[]) AND a.status NOT IN ('pending', 'running')`,
          [ids],
        );
        return settled.length === CONTACTS ? settled : undefined;
      },
      300_000,
      500,
    );
    const held = rows
      .filter((r) => r.reason === 'holdout')
      .map((r) => r.contact_id)
      .sort();
    const sigma = Math.sqrt(CONTACTS * 0.1 * 0.9);
    expect(Math.abs(held.length - CONTACTS * 0.1)).toBeLessThanOrEqual(4 * sigma);
    expect(held).toEqual(ids.filter((id) => holdoutPoint(SALT, id) < 0.1).sort());
    expect(rows.filter((r) => r.reason !== 'holdout').every((r) => r.reason === 'needs_assignee')).toBe(true);
    expect(rows.every((r) => r.status === 'skipped')).toBe(true);
    expect((await counters()) - before).toBe(0);
  }, 420_000);
});
