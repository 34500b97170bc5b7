import type { RuleDefinition } from '../../../language/rules/format/rule-types';
import { manualRunBlocker, ruleDocument } from './rule-page';

const FILE = [
  '# two rules',
  'rule: a',
  'on: contact.created',
  '---',
  'rule: b',
  'on: contact.updated',
  '',
].join('\n');

describe("ruleDocument: the rule's own document of its file", () => {
  it.each([
    [2, 'first', { text: '# two rules\nrule: a\non: contact.created', firstLine: 1 }],
    [5, 'second', { text: 'rule: b\non: contact.updated', firstLine: 5 }],
  ])('line %i gives the %s document', (line, _which, expected) => {
    expect(ruleDocument(FILE, line)).toEqual(expected);
  });

  it('gives the whole file of a single rule', () => {
    expect(ruleDocument('rule: a\non: x\n', 1)).toEqual({ text: 'rule: a\non: x', firstLine: 1 });
  });
});

const rule = (r: Partial<RuleDefinition>): RuleDefinition =>
  ({
    id: 'r',
    enabled: true,
    trigger: { kind: 'event', events: ['contact.updated'] },
    ...r,
  }) as RuleDefinition;

describe('manualRunBlocker: "Run it" only where a manual run can match', () => {
  it.each([
    [
      'an event rule on contact fields',
      rule({ conditions: { all: [{ fact: 'contact.name', operator: 'equal', value: 'x' }] } }),
      null,
    ],
    [
      'a rule started by messages',
      rule({ trigger: { kind: 'event', events: ['message.created'] } as RuleDefinition['trigger'] }),
      /carries no message/,
    ],
    [
      'a rule on a change operator',
      rule({ conditions: { all: [{ fact: 'contact.stageId', operator: 'changedTo', value: 'Qualified' }] } }),
      /no previous state/,
    ],
    [
      'a segment rule',
      rule({ trigger: { kind: 'schedule' } as unknown as RuleDefinition['trigger'] }),
      /segment rule/,
    ],
    ['a disabled rule', rule({ enabled: false }), /disabled/],
  ])('%s', (_name, r, expected) => {
    const why = manualRunBlocker(r);
    if (expected === null) expect(why).toBeNull();
    else expect(why).toMatch(expected);
  });
});
