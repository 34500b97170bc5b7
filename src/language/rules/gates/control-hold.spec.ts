import { heldByControlArm } from './control-hold';
import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from '../testing/rule-tests';
import { replayRun } from '../../../tooling/toolchain/replay-run';
import { splitPoint, splitArm } from './branch-plan';

// A contact drawn into a control arm gets no customer message from the rule for the rest of the
// run (the steps after the split too); the run's bookkeeping (a tag) still goes. The same
// decision for the engine (policy-gate.service.ts), rule tests and the offline replays.
const RULE = `rule: offer-test
on: contact.created
goal: { fact: contact, operator: hasTag, value: customer }
do:
  - send-message: Welcome
  - split:
      arms:
        offer: { weight: 50, do: [{ send-message: 20% off this week }] }
        holdout: { weight: 50, control: true }
  - add-tag: in-offer-test
  - send-message: Reminder, the offer ends soon
`;
const rule = loadRulesFromFiles([{ path: 'r.yaml', text: RULE }]).ruleSet!.rules[0];
const OFFER = new Map([[0, 0]]);
const CONTROL = new Map([[0, 1]]);

describe('heldByControlArm', () => {
  it.each([
    ['a message before the split, control arm', CONTROL, 0, false],
    ['the reminder after the split, control arm', CONTROL, 3, true],
    ['the tag after the split, control arm: bookkeeping goes', CONTROL, 2, false],
    ['the reminder after the split, offer arm', OFFER, 3, false],
    ['nothing decided yet', new Map<number, number>(), 3, false],
  ] as const)('%s', (_name, decided, action, held) => {
    expect(heldByControlArm(rule, decided, action, rule.actions[action].type) !== undefined).toBe(held);
  });

  it('holds only customer messages (react sends nothing new)', () => {
    expect(heldByControlArm(rule, CONTROL, 3, 'react')).toBeUndefined();
    expect(heldByControlArm(rule, CONTROL, 3, 'send-message')).toBe(
      'the run took the control arm holdout: it sends no message',
    );
  });
});

const contact = (id: string) => `{ id: ${id}, name: A, isBlocked: false, assigneeId: m1, tags: [] }`;

describe('a control arm in rule tests and the offline replay', () => {
  it('rule test: the control gets the welcome and the tag, the reminder listed as control_arm', async () => {
    const report = await runRuleTests(loadRulesFromFiles([{ path: 'r.yaml', text: RULE }]).ruleSet!, [
      {
        path: 'r.test.yaml',
        text: [
          'tests:',
          '  - name: control',
          '    split: holdout',
          '    event: { type: contact.created }',
          `    contact: ${contact('c1')}`,
          '    expect:',
          '      - send-message: Welcome',
          '      - add-tag: in-offer-test',
          '      - { send-message: "Reminder, the offer ends soon", skipped: control_arm }',
          '  - name: offer',
          '    split: offer',
          '    event: { type: contact.created }',
          `    contact: ${contact('c1')}`,
          '    expect:',
          '      - send-message: Welcome',
          '      - send-message: 20% off this week',
          '      - add-tag: in-offer-test',
          '      - send-message: Reminder, the offer ends soon',
          '',
        ].join('\n'),
      },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.name, r.passed, r.details])).toEqual([
      ['control', true, []],
      ['offer', true, []],
    ]);
  });

  it('diff/forecast replay: a contact hashed into the control has the reminder held (control_arm)', () => {
    const arms = rule.branches![0].arms;
    const inArm = (label: string) =>
      Array.from({ length: 200 }, (_, i) => `c${i}`).find(
        (id) => arms[splitArm(arms, splitPoint(rule.id, rule.version, id))].label === label,
      )!;
    const labels = rule.actions.map((_a, i) => `#${i + 1}`);
    const facts = (id: string) => ({
      event: { type: 'contact.created', data: {} },
      contact: { id, tags: [] },
      now: new Date('2026-06-10T12:00:00Z'),
    });
    const control = replayRun(
      rule,
      labels,
      facts(inArm('arm:holdout')),
      inArm('arm:holdout'),
      undefined,
    ).finish();
    expect(control).toEqual({ labels: ['#1', '#3'], held: { '#4': 'control_arm' } });
    const offer = replayRun(rule, labels, facts(inArm('arm:offer')), inArm('arm:offer'), undefined).finish();
    expect(offer).toEqual({ labels: ['#1', '#2', '#3', '#4'], held: {} });
  });
});
