import { DataSource } from 'typeorm';
import { DEMO } from '../support/demo-fixture';
import { admin, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { consoleCookie } from '../console/console-login';

const CONTACTS = 12;

// Issue 33, goal 3: a split with a control arm (sends nothing) and a goal, read out as an
// experiment on GET /admin/rules/:id/experiment and on the console's rules page. A dozen contacts
// are too few to say anything: the readout says so rather than give a lift.
describe('the experiment readout of a split with a control arm', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'offer.yaml': [
          'rule: offer-test',
          'on: contact.created',
          'goal: { fact: contact, operator: hasTag, value: customer }',
          'do:',
          '  - split:',
          '      arms:',
          '        offer: { weight: 50, do: [{ send-message: { text: 20% off, channel: Main WhatsApp } }] }',
          '        holdout: { weight: 50, control: true }',
          '',
        ].join('\n'),
      },
    });
  }, 120_000);
  afterAll(async () => h?.stop());

  it('counts runs per arm, names the control and says too few to say', async () => {
    const ids: string[] = [];
    for (let i = 0; i < CONTACTS; i++)
      ids.push((await newContact(h, `Exp ${i}`, { assigneeId: DEMO.members.ana })).id);
    const db = h.app.get(DataSource);
    await eventually(async () => {
      const [row] = await db.query(
        `SELECT count(*)::int AS n FROM runs WHERE rule_id = 'offer-test' AND status = 'succeeded'`,
      );
      return row.n === CONTACTS ? true : undefined;
    }, 60_000);
    const res = await admin(h, 'GET', '/admin/rules/offer-test/experiment');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ruleId: 'offer-test', goal: true, control: 'arm:holdout' });
    const arms = res.body.arms as { label: string; runs: number; converted: number; control: boolean }[];
    expect(arms.reduce((n, a) => n + a.runs, 0)).toBe(CONTACTS);
    expect(arms.find((a) => a.label === 'arm:holdout')?.control).toBe(true);
    expect(res.body.tooFew).toMatch(/^(too few to say: |fewer than two arms taken)/);
    expect(res.body.method).toContain('two-proportion z-test');
    // The control arm sent nothing.
    const [sent] = await db.query(
      `SELECT count(*)::int AS n FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.rule_id = 'offer-test' AND a.status = 'succeeded' AND r.timeline @> '[{"step": "branch", "label": "arm:holdout"}]'`,
    );
    expect(sent.n).toBe(0);
    const cookie = await consoleCookie(h.url);
    const page = await (await fetch(`${h.url}/console/rules`, { headers: { cookie } })).text();
    expect(page).toContain('experiment: ');
    expect(page).toMatch(/experiment: (too few to say|fewer than two arms taken)/);
    expect((await admin(h, 'GET', '/admin/rules/offer-test/experiment?since=nope')).status).toBe(400);
  }, 120_000);
});
