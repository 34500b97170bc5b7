// `repeat` / `again` (issue 34, goal 4): an ask-again flow unrolled at load, at most `repeat` times,
// then `exhausted`; every bad form refused with its code at its line.
import { stepsText } from '../../matching/format-timing';
import { loadRulesFromFiles } from './load-rules';

const RULE = (max: unknown, tail = '') => `rule: ask-choice
on: contact.created
do:
  - repeat: ${max}
    do:
      - send-message: 'Reply 1, 2 or 3'
      - wait: 1h
        until:
          event: message.created
          where: { fact: message.isOutgoing, operator: equal, value: false }
        on-event:
          - switch:
              cases:
                one: { if: { fact: message.text, operator: equal, value: '1' }, do: [{ add-tag: chose-1 }] }
              default:
                - again${tail}
        on-timeout:
          - add-tag: silent
    exhausted:
      - add-tag: needs-human
  - add-tag: asked
`;
const load = (text: string) => loadRulesFromFiles([{ path: 'r/rules.yaml', text }]);

describe('repeat / again', () => {
  it('unrolls to max repetitions, each in a repeat:n arm, the last again taking exhausted', () => {
    const { ruleSet, problems } = load(RULE(3));
    expect(problems).toEqual([]);
    const rule = ruleSet!.rule('ask-choice')!;
    const describe = rule.actions.map((a) => `${a.type}:${JSON.stringify(Object.values(a)[1])}`);
    expect(describe.filter((d) => d.startsWith('send-message'))).toHaveLength(3);
    expect(rule.actions.filter((a) => a.type === 'add-tag').length).toBe(3 * 2 + 1 + 1);
    const repeats = rule.branches!.filter((b) => b.kind === 'repeat').map((b) => b.arms[0].label);
    expect(repeats).toEqual(['repeat:2', 'repeat:3', 'exhausted']);
    // Depth first: copy 1 (send, chose-1), inside its default copy 2, then 3, then exhausted; the
    // on-timeout arms after them, innermost first; the step after the repeat last.
    expect(rule.actionOrigins!.map((o) => o?.repeat?.n)).toEqual([
      1,
      1,
      2,
      2,
      3,
      3,
      undefined,
      3,
      2,
      1,
      undefined,
    ]);
    expect(stepsText(rule)).toContain('again → repeat:2: { send-message "Reply 1, 2 or 3" [repeat 2/3]');
    // Positions of every copy are the step as written.
    expect(rule.actionPaths![0]).toEqual(rule.actionPaths![2]);
  });

  it('max 1 asks once: its again is exhausted', () => {
    const rule = load(RULE(1)).ruleSet!.rule('ask-choice')!;
    expect(rule.actions.filter((a) => a.type === 'send-message')).toHaveLength(1);
    expect(rule.branches!.filter((b) => b.kind === 'repeat').map((b) => b.arms[0].label)).toEqual([
      'exhausted',
    ]);
  });

  it.each([
    [0, 4, 'a whole number from 1 to 5, not 0'],
    [6, 4, 'not 6'],
    [2.5, 4, 'not 2.5'],
  ])('refuses max %s at its line', (max, line, text) => {
    const { problems } = load(RULE(max));
    expect(problems).toEqual([expect.objectContaining({ code: 'invalid-repeat', line, col: 13 })]);
    expect(problems[0].message).toContain(text);
  });

  it('refuses an again that is not the last step of its arm', () => {
    const { problems } = load(RULE(2, '\n                - add-tag: never'));
    expect(problems).toEqual([expect.objectContaining({ code: 'invalid-repeat', line: 16, col: 19 })]);
  });

  it('refuses an again outside any repeat', () => {
    const { problems } = load(`rule: r\non: contact.created\ndo:\n  - add-tag: a\n  - again\n`);
    expect(problems).toEqual([expect.objectContaining({ code: 'invalid-repeat', line: 5, col: 5 })]);
    expect(problems[0].message).toContain('not inside one');
  });

  it('refuses a repeat without again, or without exhausted', () => {
    const noAgain = load(RULE(2).replace('- again', '- add-tag: x'));
    expect(noAgain.problems.map((p) => [p.code, p.message])).toEqual([
      ['invalid-repeat', 'repeat without `again` runs once: say where it starts over'],
    ]);
    const noExhausted = load(RULE(2).replace(/ {4}exhausted:\n.*\n/, ''));
    expect(noExhausted.problems.map((p) => p.code)).toContain('schema');
  });
});
