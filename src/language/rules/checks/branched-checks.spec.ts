// The loop, conflict and tag-fight checks on rules with branches, read path by path: actions in
// exclusive arms never meet, a problem on one arm is reported with that arm's path at the action's
// line and column, and a wait separates what it delays.
import { loadRulesFromFiles } from '../format/load-rules';

const tagIf = (tag: string) => `{ fact: contact.tags, operator: hasTag, value: ${tag} }`;
const notTag = (tag: string) => `{ fact: contact.tags, operator: not:hasTag, value: ${tag} }`;
const rule = (id: string, on: string, steps: string, cond = '') =>
  `rule: ${id}\non: ${on}\n${cond ? `if: ${cond}\n` : ''}do:\n${steps.replace(/^/gm, '  ')}\n---\n`;
const ifElse = (cond: string, then: string, otherwise: string) =>
  `- if: ${cond}\n  then: [${then}]\n  else: [${otherwise}]`;

/** Problems as `code line:col: message`. */
function problemsOf(text: string): string[] {
  const { problems } = loadRulesFromFiles([{ path: 'r/a.yaml', text }]);
  return problems.map((p) => `${p.code} ${p.line}:${p.col}: ${p.message}`);
}

describe('conflicts, path by path', () => {
  it.each<[string, string, string[]]>([
    [
      'the same tag added and removed in exclusive arms',
      rule('r', 'contact.created', ifElse(tagIf('vip'), 'add-tag: x', 'remove-tag: x')),
      [],
    ],
    [
      'added before the branch, removed on one arm: that arm',
      rule('r', 'contact.created', `- add-tag: x\n${ifElse(tagIf('vip'), 'add-tag: y', 'remove-tag: x')}`),
      [
        'conflict 7:12: conflict on contact.created: remove-tag "x" in rule "r" on path [else], and this rule also does the opposite of remove-tag "x"; make their conditions exclusive or merge the rules',
      ],
    ],
    [
      'a wait on the path between them',
      rule(
        'r',
        'contact.created',
        `- add-tag: x\n${ifElse(tagIf('vip'), 'wait: 1h, remove-tag: x', 'add-tag: y')}`,
      ),
      [],
    ],
    [
      'a wait in the arm not taken does not separate them',
      rule(
        'r',
        'contact.created',
        `- add-tag: x\n${ifElse(tagIf('vip'), 'wait: 1h, add-tag: y', 'remove-tag: x')}`,
      ),
      [
        'conflict 7:12: conflict on contact.created: remove-tag "x" in rule "r" on path [else], and this rule also does the opposite of remove-tag "x"; make their conditions exclusive or merge the rules',
      ],
    ],
    [
      'two rules whose arms exclude each other',
      rule('a', 'contact.created', ifElse(tagIf('vip'), 'add-tag: x', 'add-tag: y')) +
        rule('b', 'contact.created', ifElse(notTag('vip'), 'remove-tag: x', 'add-tag: z')),
      [],
    ],
    [
      'two rules whose arms overlap: both paths named',
      rule('a', 'contact.created', ifElse(tagIf('vip'), 'add-tag: x', 'add-tag: y')) +
        rule('b', 'contact.created', ifElse(tagIf('lead'), 'remove-tag: x', 'add-tag: z')),
      [
        'conflict 12:12: conflict on contact.created: remove-tag "x" in rule "b" on path [then], and rule "a" (r/a.yaml:1:1) does the opposite on path [then]; make their conditions exclusive or merge the rules',
      ],
    ],
  ])('%s', (_name, text, expected) => expect(problemsOf(text)).toEqual(expected));
});

describe('loops, path by path', () => {
  it.each<[string, string, string[]]>([
    [
      'a path whose own write makes its condition false, and an idempotent other arm',
      rule(
        'r',
        'contact.updated',
        ifElse(notTag('done'), 'add-tag: done, assign: round-robin', 'add-tag: seen'),
      ),
      [],
    ],
    [
      'a loop only on one arm: reported with that arm',
      rule(
        'r',
        'contact.updated',
        ifElse(notTag('done'), 'add-tag: done, assign: round-robin', 'assign: round-robin'),
      ),
      [
        'loop 6:12: loop: r on path [else] (assign "round-robin" -> contact.updated) -> r: assign "round-robin" writes again on every run on path [else]; break the chain with a condition the actions make false, or drop one of the actions',
      ],
    ],
    [
      'arms undoing each other, exclusive on a field nobody writes',
      rule(
        'r',
        'contact.updated',
        ifElse('{ fact: contact.status, operator: equal, value: active }', 'add-tag: x', 'remove-tag: x'),
      ),
      [],
    ],
    [
      'arms undoing each other, exclusive on a field the rule writes: they take turns',
      rule(
        'r',
        'contact.updated',
        ifElse(tagIf('vip'), 'add-tag: x, remove-tag: vip', 'remove-tag: x, add-tag: vip'),
      ),
      [
        'loop 5:12: loop: r on path [then] (add-tag "x" -> contact.updated) -> r: the rules keep undoing each other\'s tag "x" on paths [then] and [else]; break the chain with a condition the actions make false, or drop one of the actions',
      ],
    ],
  ])('%s', (_name, text, expected) => expect(problemsOf(text)).toEqual(expected));
});

describe('tag fights, path by path', () => {
  it.each<[string, string, string[]]>([
    [
      "two rules' arms that exclude each other",
      rule('a', 'contact.created', ifElse(tagIf('vip'), 'add-tag: x', 'add-tag: y')) +
        rule('b', 'contact.updated', ifElse(tagIf('vip'), 'add-tag: z', 'remove-tag: x')),
      [],
    ],
    [
      "a fight across two rules' arms: both paths named",
      rule('a', 'contact.created', ifElse(tagIf('vip'), 'add-tag: x', 'add-tag: y')) +
        rule('b', 'contact.updated', ifElse(tagIf('lead'), 'remove-tag: x', 'add-tag: z')),
      [
        'tag-fight 12:12: fight over tag "x": rule "b" does remove-tag "x" on contact.updated on path [then], and rule "a" (r/a.yaml:1:1) does add-tag "x" on contact.created on path [then]; a contact both apply to flips back and forth: make their conditions exclusive or let one rule own it',
      ],
    ],
  ])('%s', (_name, text, expected) => expect(problemsOf(text)).toEqual(expected));
});
