// The validator on text operators, ignoreCase:, calendar facts (now.hour) and daysSince.
import { loadRulesFromFiles } from '../format/load-rules';

const load = (text: string) => loadRulesFromFiles([{ path: 'r/a.yaml', text }]);
const brief = (text: string) => load(text).problems.map((p) => `${p.line}:${p.col} ${p.code}: ${p.message}`);
const rule = (condition: string, on = 'message.created', extra = '') =>
  `rule: a\non: ${on}\n${extra}if:\n  all:\n    - ${condition}\ndo: [{ add-tag: x }]\n`;

describe('text and time conditions', () => {
  it('normalises since leaves and calendar facts, in the rule time zone', () => {
    const { ruleSet, problems } = load(
      rule(
        '{ daysSince: contact.createdAt, operator: greaterThanInclusive, value: 3 }\n' +
          '    - { fact: now.weekday, operator: in, value: [sat, sun] }\n' +
          '    - { fact: message.text, operator: ignoreCase:contains, value: refund }',
        'message.created',
        'timezone: Europe/Berlin\n',
      ),
    );
    expect(problems).toEqual([]);
    const def = ruleSet!.rule('a')!;
    expect(def.timezone).toBe('Europe/Berlin');
    expect(def.conditions).toEqual({
      all: [
        { fact: 'contact', path: '$.createdAt', since: 'days', operator: 'greaterThanInclusive', value: 3 },
        { fact: 'now', path: '$.weekday', operator: 'in', value: ['sat', 'sun'] },
        { fact: 'message', path: '$.text', operator: 'ignoreCase:contains', value: 'refund' },
      ],
    });
  });

  it('gives segment rules the time zone of their schedule', () => {
    const { ruleSet } = load(
      "rule: s\non: { schedule: '0 6 * * *', timezone: Europe/Lisbon, segment: { filters: { status: active } } }\ndo: [{ add-tag: x }]\n",
    );
    expect(ruleSet!.rule('s')!.timezone).toBe('Europe/Lisbon');
  });

  it('explains what it saw: the calendar part, the days counted and the date counted from', async () => {
    const { ruleSet } = load(
      rule(
        '{ daysSince: contact.createdAt, operator: greaterThan, value: 3 }\n' +
          '    - { fact: now.hour, operator: lessThan, value: 9 }',
        'contact.created',
        'timezone: Europe/Berlin\n',
      ),
    );
    const evaluation = await ruleSet!.evaluateRule('a', {
      event: { type: 'contact.created', data: {} },
      contact: { createdAt: '2024-05-01T10:00:00Z' },
      now: new Date('2024-05-06T05:00:00Z'),
    });
    expect(evaluation.trace.map((t) => [t.actual, t.result, t.note])).toEqual([
      [5, true, 'from 2024-05-01T10:00:00Z'],
      [7, true, 'Europe/Berlin'],
    ]);
  });

  it.each([
    ['{ fact: message.text, operator: contains, value: refund }', []],
    ['{ fact: contact.customFields.langs, operator: contains, value: pt }', []],
    ['{ fact: message.text, operator: not:ignoreCase:startsWith, value: hi }', []],
    ['{ fact: contact.sourceMethod, operator: ignoreCase:equal, value: MANUAL }', []],
    ['{ fact: now, operator: exists, value: true }', []],
    ['{ fact: now.minute, operator: greaterThan, value: 30 }', []],
    [
      '{ fact: message.text, operator: startsWith, value: 3 }',
      ['5:58 invalid-value: startsWith on text takes a non-empty text, not 3'],
    ],
    [
      '{ fact: message.text, operator: contains, value: "" }',
      ['5:56 invalid-value: contains on text takes a non-empty text, not ""'],
    ],
    [
      '{ fact: message.isOutgoing, operator: endsWith, value: x }',
      ['5:62 invalid-value: endsWith reads text and message.isOutgoing is a boolean'],
    ],
    [
      '{ fact: contact.tags, operator: contains, value: vip }',
      ['5:56 invalid-value: contains on contact.tags compares whole tags: use hasTag or hasAnyTag'],
    ],
    [
      '{ fact: contact.createdAt, operator: contains, value: "2024" }',
      ['5:61 invalid-value: contains works on text and lists, and contact.createdAt is a date-time'],
    ],
    [
      '{ fact: message.text, operator: ignoreCase:matches, value: x }',
      [
        '5:66 invalid-value: ignoreCase: applies to text comparisons (equal, notEqual, in, notIn, contains, doesNotContain, startsWith, endsWith), not matches: write (?i) in the regex',
      ],
    ],
    [
      '{ fact: message.text, operator: ignorecase:contains, value: x }',
      [
        '5:39 unknown-operator: unknown operator decorator "ignorecase" in "ignorecase:contains" (did you mean "ignoreCase"?)',
      ],
    ],
    [
      '{ fact: message.text, operator: startWith, value: x }',
      ['5:39 unknown-operator: unknown operator "startWith" (did you mean "startsWith"?)'],
    ],
    [
      '{ fact: now.hours, operator: lessThan, value: 9 }',
      ['5:15 unknown-fact: unknown fact path "now.hours": now has no field "hours" (did you mean "hour"?)'],
    ],
    [
      '{ fact: now.hour, operator: equal, value: 24 }',
      ['5:49 invalid-value: now.hour goes from 0 to 23, so 24 never matches'],
    ],
    [
      '{ fact: now.weekday, operator: equal, value: monday }',
      [
        '5:52 invalid-value: "monday" is not a possible value of now.weekday (expected one of: mon, tue, wed, thu, fri, sat, sun)',
      ],
    ],
    [
      '{ daysSince: contact.name, operator: greaterThan, value: 3 }',
      ['5:20 invalid-value: daysSince counts from a date-time, and contact.name is not one'],
    ],
    [
      '{ daysSince: contact.createdAt, operator: greaterThan, value: "3d" }',
      ['5:69 invalid-value: greaterThan takes a number, not "3d"'],
    ],
    [
      '{ hoursSince: contact.createdAd, operator: greaterThan, value: 3 }',
      [
        '5:21 unknown-fact: unknown fact path "contact.createdAd": contact has no field "createdAd" (did you mean "createdAt"?)',
      ],
    ],
    [
      '{ daysSince: contact.createdAt, fact: contact.name, operator: equal, value: 3 }',
      ['5:7 schema: a condition reads one fact; found fact and daysSince'],
    ],
  ])('%s', (condition, expected) => {
    expect(brief(rule(condition))).toEqual(expected);
  });

  it('refuses an unknown rule time zone with a did-you-mean', () => {
    expect(
      brief(
        rule(
          '{ fact: now.hour, operator: lessThan, value: 9 }',
          'message.created',
          'timezone: Europe/Berln\n',
        ),
      ),
    ).toEqual([
      '3:11 invalid-timezone: unknown time zone "Europe/Berln" (did you mean "Europe/Berlin"?); use an IANA name like Europe/Lisbon',
    ]);
  });
});
