import { DataSource } from 'typeorm';
import { DEMO } from '../support/demo-fixture';
import { admin, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { consoleCookie } from './console/console-login';

const CONTACTS = 12;

// Issue 33, goal 3: a split with a control arm (sends nothing) and a goal, read out as an
// experiment on GET /admin/rules/:id/experiment and on the console's rules and rule pages, every
// split of the rule on its own. A contact in the control arm gets no message for the rest of the
// run (the reminder after the split is skipped `control_arm`), its tag still goes. A dozen
// contacts are too few to say anything: the readout says so rather than give a lift.
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
          '  - add-tag: thanked',
          '  - send-message: { text: The offer ends soon, channel: Main WhatsApp }',
          '  - split:',
          '      arms:',
          '        short: { weight: 50, do: [{ add-tag: vip }] }',
          '        long: { weight: 50, do: [{ add-tag: dormant }] }',
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
    // The control arm sent no message.
    const [sent] = await db.query(
      `SELECT count(*)::int AS n FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.rule_id = 'offer-test' AND a.status = 'succeeded' AND a.action->>'type' = 'send-message'
          AND r.timeline @> '[{"step": "branch", "label": "arm:holdout"}]'`,
    );
    expect(sent.n).toBe(0);
    // Control contacts: the reminder after the split skipped (control_arm), the tag done.
    const control: { index: number; status: string; reason: string | null }[] = await db.query(
      `SELECT a.action_index AS index, a.status, a.reason FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.rule_id = 'offer-test' AND r.timeline @> '[{"step": "branch", "label": "arm:holdout"}]'
          AND a.action_index IN (1, 2) ORDER BY 1`,
    );
    const inControl = arms.find((a) => a.label === 'arm:holdout')!.runs;
    expect(control.filter((a) => a.index === 1 && a.status === 'succeeded')).toHaveLength(inControl);
    expect(control.filter((a) => a.index === 2 && a.reason === 'control_arm')).toHaveLength(inControl);
    // The other arm's contacts got the reminder.
    const [reminded] = await db.query(
      `SELECT count(*)::int AS n FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.rule_id = 'offer-test' AND a.action_index = 2 AND a.status = 'succeeded'`,
    );
    expect(reminded.n).toBe(CONTACTS - inControl);
    // Every split read out on its own, each arm counted once per split.
    const splits = res.body.splits as { at: string; control?: string; arms: { runs: number }[] }[];
    expect(splits.map((x) => [x.at, x.control])).toEqual([
      ['do.0', 'arm:holdout'],
      ['do.3', 'arm:long'],
    ]);
    expect(splits[1].arms.reduce((n, a) => n + a.runs, 0)).toBe(CONTACTS);
    const cookie = await consoleCookie(h.url);
    const page = await (await fetch(`${h.url}/console/rules`, { headers: { cookie } })).text();
    expect(page).toMatch(/experiment \(split do\.0\): (too few to say|fewer than two arms taken)/);
    expect(page).toMatch(/experiment \(split do\.3\): (too few to say|fewer than two arms taken)/);
    const rulePage = await (await fetch(`${h.url}/console/rules/offer-test`, { headers: { cookie } })).text();
    expect(rulePage).toMatch(/experiment \(split do\.3\): /);
    // Messages per category (issue 33, goal 2): none declared, counted in the named default; the
    // control contacts' reminders are the ones not sent.
    const sentMessages = 2 * (CONTACTS - inControl);
    expect(rulePage).toContain(
      `<tr><td>default (no category declared)</td><td>${sentMessages}</td><td>${inControl} <span class="muted">(control_arm ${inControl})</span></td>`,
    );
    expect((await admin(h, 'GET', '/admin/rules/offer-test/experiment?since=nope')).status).toBe(400);
  }, 120_000);
});
