// Branches as the loader numbers them: actions depth-first, each arm an action range, waits and
// branches in written order, positions of nested actions; rules without branches unchanged.
import { loadRulesFromFiles } from './load-rules';
import { stepsText } from '../../matching/format-timing';
import { actionPath } from './parse-steps';

const load = (text: string) => loadRulesFromFiles([{ path: 'r/a.yaml', text }]);

const ASK = `rule: ask
on: message.created
if: { fact: message.isOutgoing, operator: equal, value: false }
goal: { fact: contact.tags, operator: hasTag, value: customer }
do:
  - send-message: Reply 1 to book a call, 2 for prices
  - wait: 2h
    until: { event: message.created }
    on-event:
      - switch:
          cases:
            book:
              if: { fact: message.text, operator: equal, value: '1' }
              do: [ { add-tag: book-call } ]
            prices:
              if: { fact: message.text, operator: equal, value: '2' }
              do: [ { send-message: Our prices }, { add-tag: prices } ]
          default:
            - add-tag: to-person
    on-timeout:
      - add-tag: no-reply
  - split:
      arms:
        a: { weight: 70, do: [ { add-tag: a } ] }
        b: { weight: 30, do: [ { add-tag: b } ] }
`;

describe('branches in do', () => {
  const { ruleSet, problems } = load(ASK);
  const def = ruleSet!.rule('ask')!;

  it('numbers actions depth-first and gives each arm its range', () => {
    expect(problems).toEqual([]);
    expect(def.actions.map((a) => ('tag' in a ? a.tag : a.type))).toEqual([
      'send-message',
      'book-call',
      'send-message',
      'prices',
      'to-person',
      'no-reply',
      'a',
      'b',
    ]);
    expect(def.waits).toEqual([expect.objectContaining({ beforeAction: 1, outcomes: true })]);
    const shape = def.branches!.map((b) => ({
      kind: b.kind,
      at: b.at,
      end: b.end,
      afterWaits: b.afterWaits,
      arms: b.arms.map((a) => `${a.label}:${a.from}-${a.to}${a.weight ? `@${a.weight}` : ''}`),
    }));
    expect(shape).toEqual([
      { kind: 'outcome', at: 1, end: 6, afterWaits: 1, arms: ['on-event:1-5', 'on-timeout:5-6'] },
      {
        kind: 'switch',
        at: 1,
        end: 5,
        afterWaits: 1,
        arms: ['case:book:1-2', 'case:prices:2-4', 'default:4-5'],
      },
      { kind: 'split', at: 6, end: 8, afterWaits: 1, arms: ['arm:a:6-7@70', 'arm:b:7-8@30'] },
    ]);
    expect(def.goal).toEqual({
      all: [{ fact: 'contact', path: '$.tags', operator: 'hasTag', value: 'customer' }],
    });
  });

  it.each([
    [0, ['do', 0]],
    [3, ['do', 1, 'on-event', 0, 'switch', 'cases', 'prices', 'do', 1]],
    [5, ['do', 1, 'on-timeout', 0]],
    [7, ['do', 2, 'split', 'arms', 'b', 'do', 0]],
  ])('action %i is written at %j', (i, path) => expect(actionPath(def, i)).toEqual(path));

  it('explains the steps with each arm in braces, in written order', () => {
    expect(stepsText(def)).toBe(
      [
        'send-message "Reply 1 to book a call, 2 for prices", wait 2h ended by message.created,',
        'outcome on-event: { switch case:book if message.text equal "1": { add-tag "book-call" }',
        'case:prices if message.text equal "2": { send-message "Our prices", add-tag "prices" }',
        'default: { add-tag "to-person" } } on-timeout: { add-tag "no-reply" },',
        'split arm:a (weight 70): { add-tag "a" } arm:b (weight 30): { add-tag "b" }',
      ].join(' '),
    );
  });

  it('keeps a rule without branches as it was: no branches, no paths', () => {
    const flat = load(`rule: flat
on: message.created
do:
  - add-tag: a
  - wait: 1h
  - add-tag: b
`).ruleSet!.rule('flat')!;
    expect(flat.branches).toBeUndefined();
    expect(flat.actionPaths).toBeUndefined();
    expect(flat.actionSteps).toEqual([0, 2]);
  });
});

describe('a switch case whose condition repeats an earlier case', () => {
  const rule = (second: string) => `rule: route
on: message.created
do:
  - switch:
      cases:
        one:
          if: { fact: message.text, operator: equal, value: '1' }
          do: [{ add-tag: one }]
        again:
          if: { fact: message.text, operator: equal, value: '${second}' }
          do: [{ add-tag: again }]
`;

  it('is warned duplicate-case at its if: it can never be taken', () => {
    const { ruleSet, problems } = load(rule('1'));
    expect(ruleSet).toBeDefined();
    expect(problems.map((p) => `${p.line}:${p.col} ${p.severity} ${p.code}`)).toEqual([
      '10:15 warning duplicate-case',
    ]);
  });

  it('passes when the conditions differ', () => {
    expect(load(rule('2')).problems).toEqual([]);
  });
});
