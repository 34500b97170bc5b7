import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from './rule-tests';
import { testTagId, withTagObjects } from './test-contact-tags';

const RULES = `rule: welcome-vip
on: contact.updated
if: { fact: contact.tags, operator: added, value: vip }
do: [{ add-tag: welcomed-vip }]
`;
const set = loadRulesFromFiles([{ path: 'r/rules.yaml', text: RULES }]).ruleSet!;

describe('test contacts accept tag names', () => {
  it('reads tags: [vip] as the tag vip: added matches ([] → [vip])', async () => {
    const report = await runRuleTests(set, [
      {
        path: 'r/rules.test.yaml',
        text: [
          'tests:',
          '  - name: tagged vip',
          '    event: { type: contact.updated }',
          '    previous: { tags: [] }',
          '    contact: { tags: [vip] }',
          '    expect: [{ add-tag: welcomed-vip }]',
          '  - name: already vip',
          '    event: { type: contact.updated }',
          '    previous: { tags: [VIP] }',
          '    contact: { tags: [vip, other] }',
          '    expect: none',
          '',
        ].join('\n'),
      },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.name, r.passed, r.details])).toEqual([
      ['tagged vip', true, []],
      ['already vip', true, []],
    ]);
  });

  it('keeps tag objects and uuids as they are, and names the same tag the same id', () => {
    const uuid = '0b6f1f5e-8a6c-4b0e-9a57-1c2f4d7e9a01';
    expect(withTagObjects({ tags: [{ id: uuid, name: 'x' }, uuid, 'Vip'] }).tags).toEqual([
      { id: uuid, name: 'x' },
      { id: uuid },
      { id: testTagId('vip'), name: 'Vip' },
    ]);
    expect(testTagId('vip')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
