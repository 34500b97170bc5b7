// Execution paths of a rule: every way a run goes through if / switch / split / wait outcomes, the
// actions it performs in order with the waits between them, the conditions its arms require, and
// the cap on their number.
import { loadRulesFromFiles } from './load-rules';
import { PATH_CAP, pathLeaves, rulePaths, type RulePath } from './rule-paths';
import type { RuleDefinition } from './rule-types';

function rule(steps: string, on = 'contact.updated'): RuleDefinition {
  const text = `rule: r\non: ${on}\ndo:\n${steps.replace(/^/gm, '  ')}\n`;
  const { ruleSet, problems } = loadRulesFromFiles([{ path: 'r/a.yaml', text }]);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  return ruleSet!.rule('r')!;
}

/** `[then]: a | b`: the labels, then the tags added in order, `|` where a wait passes. */
function render(def: RuleDefinition, path: RulePath): string {
  let moment = 0;
  const steps = path.steps.map((s) => {
    const bar = '| '.repeat(s.moment - moment);
    moment = s.moment;
    const action = def.actions[s.action];
    return bar + ('tag' in action ? String(action.tag) : action.type);
  });
  return `[${path.labels.join(', ')}]: ${steps.join(' ')}`;
}

const tagIf = (tag: string) => `{ fact: contact.tags, operator: hasTag, value: ${tag} }`;

describe('rulePaths', () => {
  it.each<[string, string, string[]]>([
    ['a rule without branches: one path', '- add-tag: a\n- add-tag: b', ['[]: a b']],
    ['a wait between two actions', '- add-tag: a\n- wait: 1h\n- add-tag: b', ['[]: a | b']],
    [
      'if / then / else, with what comes before and after on both',
      `- add-tag: a\n- if: ${tagIf('vip')}\n  then: [add-tag: b]\n  else: [add-tag: c]\n- add-tag: d`,
      ['[then]: a b d', '[else]: a c d'],
    ],
    [
      'an absent else does nothing',
      `- add-tag: a\n- if: ${tagIf('vip')}\n  then: [add-tag: b]`,
      ['[then]: a b', '[else]: a'],
    ],
    [
      'switch: cases in order, then default',
      `- switch:\n    cases:\n      x: { if: ${tagIf('x')}, do: [add-tag: b] }\n      y: { if: ${tagIf('y')}, do: [add-tag: c] }\n    default: [add-tag: d]`,
      ['[case:x]: b', '[case:y]: c', '[default]: d'],
    ],
    [
      'split arms',
      '- split:\n    arms:\n      a: { weight: 1, do: [add-tag: b] }\n      b: { weight: 1, do: [add-tag: c] }',
      ['[arm:a]: b', '[arm:b]: c'],
    ],
    [
      'wait outcomes: the wait passes on both',
      '- add-tag: a\n- wait: 1h\n  until: { event: message.created }\n  on-event: [add-tag: b]\n  on-timeout: [add-tag: c]\n- add-tag: d',
      ['[on-event]: a | b d', '[on-timeout]: a | c d'],
    ],
    [
      'a wait in an arm not taken does not delay the other arm',
      `- add-tag: a\n- if: ${tagIf('vip')}\n  then: [wait: 1h, add-tag: b]\n  else: [add-tag: c]\n- add-tag: d`,
      ['[then]: a | b d', '[else]: a c d'],
    ],
    [
      'nested branches: the labels outermost first',
      `- wait: 1h\n  until: { event: message.created }\n  on-timeout:\n    - if: ${tagIf('vip')}\n      then: [add-tag: b]\n      else: [add-tag: c]\n- add-tag: d`,
      ['[on-event]: | d', '[on-timeout, then]: | b d', '[on-timeout, else]: | c d'],
    ],
  ])('%s', (_name, steps, expected) => {
    const def = rule(steps);
    const { paths, capped } = rulePaths(def);
    expect(paths.map((p) => render(def, p))).toEqual(expected);
    expect(capped).toBe(false);
  });

  it.each([
    [7, 128, false],
    [8, PATH_CAP, true],
  ])('%i if / else in a row: %i paths read, capped %s', (count, paths, capped) => {
    const steps = Array.from(
      { length: count },
      (_, i) => `- if: ${tagIf(`t${i}`)}\n  then: [add-tag: a${i}]\n  else: [add-tag: b${i}]`,
    );
    const found = rulePaths(rule(steps.join('\n')));
    expect([found.paths.length, found.capped]).toEqual([paths, capped]);
  });
});

describe('pathLeaves: what a run along the path certainly requires', () => {
  const leaves = (def: RuleDefinition, i: number) =>
    pathLeaves(def, rulePaths(def).paths[i]).map(
      (l) => `${l.negated ? 'not ' : ''}${l.field} ${l.op} ${String(l.value)}`,
    );

  it.each<[string, string, number, string[]]>([
    [
      'then: its condition holds',
      `- if: ${tagIf('vip')}\n  then: [add-tag: b]\n  else: [add-tag: c]`,
      0,
      ['contact.tags hasTag vip'],
    ],
    [
      'else: the condition failed',
      `- if: ${tagIf('vip')}\n  then: [add-tag: b]\n  else: [add-tag: c]`,
      1,
      ['not contact.tags hasTag vip'],
    ],
    [
      'a later case: the earlier ones failed',
      `- switch:\n    cases:\n      x: { if: ${tagIf('x')}, do: [add-tag: b] }\n      y: { if: ${tagIf('y')}, do: [add-tag: c] }\n    default: [add-tag: d]`,
      1,
      ['not contact.tags hasTag x', 'contact.tags hasTag y'],
    ],
    [
      'a failed `any`: every branch failed',
      `- if: { any: [${tagIf('x')}, ${tagIf('y')}] }\n  then: [add-tag: b]\n  else: [add-tag: c]`,
      1,
      ['not contact.tags hasTag x', 'not contact.tags hasTag y'],
    ],
    [
      'a failed `all` of two: nothing certain',
      `- if: { all: [${tagIf('x')}, ${tagIf('y')}] }\n  then: [add-tag: b]\n  else: [add-tag: c]`,
      1,
      [],
    ],
    [
      'after on-event, message facts read the awaited message: left out',
      `- wait: 1h\n  until: { event: message.created }\n  on-event:\n    - if: { all: [{ fact: message.text, operator: equal, value: '1' }, ${tagIf('x')}] }\n      then: [add-tag: b]`,
      0,
      ['contact.tags hasTag x'],
    ],
  ])('%s', (_name, steps, path, expected) => {
    expect(leaves(rule(steps, 'message.created'), path)).toEqual(expected);
  });
});
