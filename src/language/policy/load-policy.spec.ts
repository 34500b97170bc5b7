import { loadRulesFromFiles } from '../rules/format/load-rules';
import { loadPolicy } from './load-policy';

const RULE = { path: 'rules/hello.yaml', text: 'rule: hello\non: contact.created\ndo:\n  - add-tag: x\n' };
const policyFile = (text: string) => ({ path: 'rules/policy.yaml', text });
const ICS = [
  'BEGIN:VCALENDAR',
  'BEGIN:VEVENT',
  'DTSTART;VALUE=DATE:20261225',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\n');

const FULL = `timezone: Europe/Berlin
contact-timezone-field: timezone
caps: [{ max: 2, per: 1d }, { max: 5, per: 7d }]
over-cap: defer
quiet-hours: { from: "21:00", to: "08:00", zone: contact }
exempt-replies-within: 24h
calendars:
  holidays: { dates: [2026-12-26, 2026-12-25] }
  berlin: { ics: cal/berlin.ics }
`;

describe('loadPolicy', () => {
  it('normalises a full policy', () => {
    const { policy, problems } = loadPolicy(
      [policyFile(FULL)],
      [{ path: 'rules/cal/berlin.ics', text: ICS }],
    );
    expect(problems).toEqual([]);
    expect(policy).toEqual({
      hash: expect.any(String),
      timezone: 'Europe/Berlin',
      contactTimezoneField: 'timezone',
      caps: [
        { max: 2, per: '1d', perMs: 86_400_000 },
        { max: 5, per: '7d', perMs: 7 * 86_400_000 },
      ],
      overCap: 'defer',
      quietHours: { from: 21 * 60, to: 8 * 60, zone: 'contact' },
      inQuietHours: 'defer',
      exemptRepliesWithinMs: 86_400_000,
      calendars: { holidays: ['2026-12-25', '2026-12-26'], berlin: ['2026-12-25'] },
    });
  });

  it('defaults: skip over the cap, UTC, no quiet hours', () => {
    expect(loadPolicy([policyFile('caps: [{ max: 1, per: 1h }]\n')], []).policy).toMatchObject({
      timezone: 'UTC',
      overCap: 'skip',
      calendars: {},
    });
  });

  it.each([
    ['an unknown key', 'capz: []\n', 1, 1, 'schema'],
    ['a cap without per', 'caps:\n  - { max: 2 }\n', 2, 5, 'schema'],
    ['a bad duration', 'caps:\n  - { max: 2, per: 1day }\n', 2, 20, 'schema'],
    ['an unknown zone', 'timezone: Europe/Berlinn\n', 1, 11, 'invalid-timezone'],
    ['an hour that does not exist', 'quiet-hours: { from: "25:00", to: "08:00" }\n', 1, 22, 'invalid-policy'],
    ['empty quiet hours', 'quiet-hours: { from: "08:00", to: "08:00" }\n', 1, 14, 'invalid-policy'],
    ['a missing .ics file', 'calendars:\n  x: { ics: nope.ics }\n', 2, 13, 'invalid-calendar'],
    ['a calendar with both forms', 'calendars:\n  x: { ics: a.ics, dates: [] }\n', 2, 6, 'invalid-calendar'],
    ['a date that does not exist', 'calendars:\n  x: { dates: [2026-02-30] }\n', 2, 16, 'invalid-calendar'],
    ['YAML syntax (an unclosed bracket, where it opens)', 'caps: [\n', 1, 7, 'yaml-syntax'],
  ])('reports %s at file:line:col', (_name, text, line, col, code) => {
    const { policy, problems } = loadPolicy([policyFile(text)], []);
    expect(policy).toBeUndefined();
    expect(problems[0]).toMatchObject({ file: 'rules/policy.yaml', line, col, code, severity: 'error' });
  });

  it('reports problems of an .ics file in that file', () => {
    const { problems } = loadPolicy(
      [policyFile('calendars:\n  x: { ics: x.ics }\n')],
      [{ path: 'rules/x.ics', text: 'BEGIN:VCALENDAR\nEND:VCALENDAR\n' }],
    );
    expect(problems).toEqual([expect.objectContaining({ file: 'rules/x.ics', code: 'invalid-calendar' })]);
  });
});

describe('the policy in the rule set', () => {
  it('is optional: without it the set and its version are as before', () => {
    const without = loadRulesFromFiles([RULE]);
    expect(without.ruleSet?.policy).toBeUndefined();
    const withPolicy = loadRulesFromFiles([RULE, policyFile('caps: [{ max: 2, per: 1d }]\n')]);
    expect(withPolicy.ruleSet?.policy?.caps).toHaveLength(1);
    // The policy is not a rule, and its content is part of the version.
    expect(withPolicy.ruleSet?.rules.map((r) => r.id)).toEqual(['hello']);
    expect(withPolicy.ruleSet?.version).not.toBe(without.ruleSet?.version);
    const other = loadRulesFromFiles([RULE, policyFile('caps: [{ max: 3, per: 1d }]\n')]);
    expect(other.ruleSet?.version).not.toBe(withPolicy.ruleSet?.version);
  });

  it('refuses the rule set when the policy is broken', () => {
    const result = loadRulesFromFiles([RULE, policyFile('caps: 2\n')]);
    expect(result.ruleSet).toBeUndefined();
    expect(result.problems[0]).toMatchObject({ file: 'rules/policy.yaml', severity: 'error' });
  });

  it('refuses a second policy file', () => {
    const result = loadRulesFromFiles([
      RULE,
      policyFile('{}\n'),
      { path: 'rules/sub/policy.yml', text: '{}\n' },
    ]);
    expect(result.problems).toEqual([expect.objectContaining({ code: 'duplicate-policy' })]);
  });
});
