// validate on change operators: where a previous state exists, what values they take, and their
// names against a CRM snapshot. Each case is one rule file; problems as `line:col code`.
import { emptySnapshot, type CrmSnapshot } from '../../crm-terms/crm-snapshot';
import { loadRulesFromFiles } from '../format/load-rules';

const snapshot: CrmSnapshot = {
  ...emptySnapshot('https://crm.test'),
  takenAt: '2026-11-23T10:00:00.000Z',
  tags: [{ id: 't1', name: 'vip' }],
  stages: [{ id: 's1', name: 'Qualified' }] as CrmSnapshot['stages'],
  members: [{ id: 'm1', name: 'Ana Costa', email: 'ana@demo.test', status: 'active' }],
};

const problemsOf = (on: string, condition: string, extra = '') =>
  loadRulesFromFiles(
    [{ path: 'r/a.yaml', text: `rule: a\non: ${on}\nif: ${condition}\ndo:\n  - add-tag: vip\n${extra}` }],
    { snapshot },
  ).problems.map((p) => `${p.line}:${p.col} ${p.code}`);

describe('validate: change operators', () => {
  it.each<[string, string, string, string[]]>([
    [
      'changedTo a stage name',
      'contact.updated',
      '{ fact: contact.stageId, operator: changedTo, value: Qualified }',
      [],
    ],
    [
      'changedTo on contact.created too',
      'contact.created',
      '{ fact: contact.stageId, operator: changedTo, value: Qualified }',
      [],
    ],
    [
      'changedFrom a member',
      'contact.updated',
      '{ fact: contact.assigneeId, operator: changedFrom, value: ana@demo.test }',
      [],
    ],
    ['changed on a field', 'contact.updated', '{ fact: contact.status, operator: changed, value: true }', []],
    [
      'changedTo on a plain field',
      'contact.updated',
      '{ fact: contact.isBlocked, operator: changedTo, value: true }',
      [],
    ],
    ['added a tag', 'contact.updated', '{ fact: contact.tags, operator: added, value: vip }', []],
    ['not:removed a tag', 'contact.updated', '{ fact: contact.tags, operator: not:removed, value: vip }', []],
    [
      'unknown stage name',
      'contact.updated',
      '{ fact: contact.stageId, operator: changedTo, value: Qualifed }',
      ['3:58 unknown-name'],
    ],
    [
      'unknown tag name',
      'contact.updated',
      '{ fact: contact.tags, operator: added, value: vpi }',
      ['3:51 unknown-name'],
    ],
    [
      'refused on message events',
      'message.created',
      '{ fact: contact.stageId, operator: changedTo, value: Qualified }',
      ['3:40 change-without-previous'],
    ],
    [
      'refused on contact.deleted',
      'contact.deleted',
      '{ fact: contact.tags, operator: added, value: vip }',
      ['3:37 change-without-previous'],
    ],
    [
      'refused with another decorator',
      'contact.updated',
      '{ fact: contact.status, operator: someFact:changed, value: true }',
      ['3:39 invalid-value'],
    ],
    [
      'changed takes true',
      'contact.updated',
      '{ fact: contact.status, operator: changed, value: archived }',
      ['3:55 invalid-value'],
    ],
    [
      'added reads tags',
      'contact.updated',
      '{ fact: contact.name, operator: added, value: vip }',
      ['3:37 invalid-value'],
    ],
    [
      'changedTo on tags',
      'contact.updated',
      '{ fact: contact.tags, operator: changedTo, value: vip }',
      ['3:37 invalid-value'],
    ],
    [
      'a whole contact',
      'contact.updated',
      '{ fact: contact, operator: changed, value: true }',
      ['3:13 invalid-value'],
    ],
    [
      'message fields',
      'contact.updated',
      '{ fact: event.data.name, operator: changed, value: true }',
      ['3:13 invalid-value'],
    ],
  ])('%s', (_name, on, condition, expected) => {
    expect(problemsOf(on, condition)).toEqual(expected);
  });

  it('refuses a change operator in a wait condition, where no event changed the contact', () => {
    const text = [
      'rule: a',
      'on: contact.updated',
      'do:',
      '  - wait: 1h',
      '    unless: { fact: contact.stageId, operator: changedTo, value: Qualified }',
      '  - add-tag: vip',
      '',
    ].join('\n');
    const problems = loadRulesFromFiles([{ path: 'r/a.yaml', text }], { snapshot }).problems;
    expect(problems.map((p) => `${p.line}:${p.col} ${p.code}`)).toEqual(['5:48 change-without-previous']);
  });

  it('refuses a change operator on a segment rule (they take no if) with its file:line:col', () => {
    const text = [
      'rule: a',
      'on:',
      '  schedule: "0 9 * * *"',
      '  segment: { filters: { status: active } }',
      'if: { fact: contact.tags, operator: added, value: vip }',
      'do:',
      '  - add-tag: vip',
      '',
    ].join('\n');
    const problems = loadRulesFromFiles([{ path: 'r/a.yaml', text }], { snapshot }).problems;
    expect(problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.code}`)).toEqual(['r/a.yaml:5:1 schema']);
  });
});
