// failure.reason / failure.class (issue 34, goal 1): readable in the conditions and templates of an
// `on-failure:` arm (nested steps, calls included), refused as unavailable-fact anywhere else.
import { loadRulesFromFiles } from './load-rules';

const rule = (body: string) =>
  ['rule: a', 'on: contact.created', 'do:', ...body.split('\n').map((l) => `  ${l}`), ''].join('\n');
const problemsOf = (text: string, steps?: string) =>
  loadRulesFromFiles([
    { path: 'r/a.yaml', text },
    ...(steps ? [{ path: 'r/steps/fallback.yaml', text: steps }] : []),
  ]).problems.map(
    (p) =>
      `${p.line}:${p.code}${p.code === 'unavailable-fact' ? `: ${p.message.replace(/^\{\{.*?\}\}: /, '')}` : ''}`,
  );

const SEND = "- send-message: { text: 'Hi', channel: Main WhatsApp }";
const OUTSIDE = 'unavailable-fact: fact "failure" only exists inside an on-failure arm';

describe('failure facts', () => {
  it.each<[string, string, string[]]>([
    [
      'a template in the arm',
      `${SEND}\n  on-failure:\n    - set-field: { key: last_error, value: 'refused: {{failure.reason}} ({{failure.class}})' }`,
      [],
    ],
    [
      'a switch in the arm',
      [
        SEND,
        '  on-failure:',
        '    - switch:',
        '        cases:',
        '          window:',
        '            if: { fact: failure.reason, operator: equal, value: outside_messaging_window }',
        '            do: [add-tag: out-of-window]',
        '        default: [add-tag: send-failed]',
      ].join('\n'),
      [],
    ],
    [
      'an if on the class in the arm',
      `${SEND}\n  on-failure:\n    - if: { fact: failure.class, operator: equal, value: dead }\n      then: [add-tag: gave-up]`,
      [],
    ],
    [
      'a template after the arm',
      `${SEND}\n  on-failure: [add-tag: x]\n- set-field: { key: last_error, value: '{{failure.reason}}' }`,
      [`6:${OUTSIDE}`],
    ],
    [
      'a template with no arm',
      "- set-field: { key: last_error, value: '{{failure.reason}}' }",
      [`4:${OUTSIDE}`],
    ],
    [
      'an if outside any arm',
      '- if: { fact: failure.reason, operator: equal, value: x }\n  then: [add-tag: x]',
      [`4:${OUTSIDE}`],
    ],
    [
      "a wait's unless in the arm (it reads the facts of its wake-up)",
      `${SEND}\n  on-failure:\n    - wait: 1h\n      unless: { fact: failure.class, operator: equal, value: dead }\n    - add-tag: x`,
      [`7:${OUTSIDE}`],
    ],
    [
      'an unknown field',
      `${SEND}\n  on-failure:\n    - set-field: { key: last_error, value: '{{failure.code}}' }`,
      ['6:unknown-fact'],
    ],
    [
      'a class that can never be',
      `${SEND}\n  on-failure:\n    - if: { fact: failure.class, operator: equal, value: uncertain }\n      then: [add-tag: x]`,
      ['6:invalid-value'],
    ],
  ])('%s', (_, body, expected) => {
    expect(problemsOf(rule(body))).toEqual(expected);
  });

  it('a called step list reads them when the call is in the arm, not when it is outside', () => {
    const steps =
      "steps: fallback\ndo:\n  - set-field: { key: last_error, value: 'refused: {{failure.reason}}' }\n";
    expect(problemsOf(rule(`${SEND}\n  on-failure:\n    - call: fallback`), steps)).toEqual([]);
    expect(problemsOf(rule('- call: fallback'), steps)).toEqual([`4:${OUTSIDE}`]);
  });
});
