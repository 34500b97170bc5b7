import { loadRulesFromFiles } from '../rules/format/load-rules';

// policy.yaml's segment suppressions linked to the rule set's segment rules, and quiet days
// (calendars per category) checked against the policy's calendars.
const SEGMENT_RULE = `rule: lapsed-vips
on:
  schedule: '0 6 * * *'
  segment:
    name: lapsed
    filters: { tagIds: [vip], lastInteractionBefore: now-90d }
do:
  - add-tag: lapsed
`;
const load = (files: Record<string, string>, skipDisabled = false) =>
  loadRulesFromFiles(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    { skipDisabled },
  );
const codes = (files: Record<string, string>) =>
  load(files).problems.map((p) => `${p.code} ${p.line}:${p.col}`);

describe('segment suppressions', () => {
  it("link the segment's filters, by segment name or rule id", () => {
    for (const name of ['lapsed', 'lapsed-vips']) {
      const { ruleSet, problems } = load({
        'policy.yaml': `suppress:\n  - segment: ${name}\n`,
        'r.yaml': SEGMENT_RULE,
      });
      expect(problems).toEqual([]);
      expect(ruleSet!.policy!.suppress).toEqual([
        {
          name: `segment ${name}`,
          segment: name,
          filters: { tagIds: ['vip'], lastInteractionBefore: 'now-90d' },
        },
      ]);
    }
  });

  it('refuse an unknown segment at its position in policy.yaml', () => {
    expect(codes({ 'policy.yaml': 'suppress:\n  - segment: lapsd\n', 'r.yaml': SEGMENT_RULE })).toEqual([
      'unknown-segment 2:14',
    ]);
  });

  it("find a disabled rule's segment when the loader leaves disabled rules out (forecast)", () => {
    const disabled = SEGMENT_RULE.replace('do:', 'enabled: false\ndo:');
    const { problems } = load(
      { 'policy.yaml': 'suppress:\n  - segment: lapsed\n', 'r.yaml': disabled },
      true,
    );
    expect(problems).toEqual([]);
  });

  it('refuse a segment naming a stage by name: membership is judged on the contact, without the directory', () => {
    const staged = SEGMENT_RULE.replace('tagIds: [vip]', 'stageIds: [Won]');
    expect(codes({ 'policy.yaml': 'suppress:\n  - segment: lapsed\n', 'r.yaml': staged })).toEqual([
      'invalid-policy 2:14',
    ]);
  });
});

describe('quiet days', () => {
  const CALENDARS = 'calendars:\n  holidays: { dates: [2026-12-25] }\n';
  it('normalise at the top and per category (none: none)', () => {
    const { ruleSet, problems } = load({
      'policy.yaml': `${CALENDARS}quiet-days: [holidays]\ncategories:\n  default: {}\n  transactional: { quiet-days: none }\n`,
    });
    expect(problems).toEqual([]);
    expect(ruleSet!.policy).toMatchObject({
      quietDays: ['holidays'],
      categories: { default: {}, transactional: { quietDays: null } },
    });
  });

  it('refuse a calendar the policy does not define', () => {
    expect(
      codes({ 'policy.yaml': `${CALENDARS}categories:\n  default: { quiet-days: [holiday] }\n` }),
    ).toEqual(['unknown-calendar 4:27']);
  });
});
