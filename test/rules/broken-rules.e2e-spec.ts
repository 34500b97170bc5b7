// A directory of deliberately broken rule sets, one per error class: each must produce exactly
// the messages in its expected.txt, with the right line and column, all in one run.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { formatProblems } from '../../src/rules/format-problems';
import { loadRulesFromDir } from '../../src/rules/load-rules';

const BROKEN = relative(process.cwd(), join(__dirname, 'broken'));
const cases = readdirSync(BROKEN).sort();
const WARNING_CASES = ['unreachable', 'tag-fight'];

describe('broken rule files', () => {
  it('has one case per error class the validator knows', () => {
    expect(cases).toEqual(
      expect.arrayContaining([
        'yaml-syntax',
        'schema',
        'duplicate-id',
        'unknown-event',
        'unknown-operator',
        'unknown-fact',
        'unavailable-fact',
        'unknown-action',
        'invalid-action',
        'invalid-value',
        'invalid-cron',
        'invalid-timezone',
        'invalid-window',
        'invalid-wait',
        'empty-arm',
        'invalid-limit',
        'invalid-segment',
        'unsupported-segment-filter',
        'invalid-regex',
        'unsafe-regex',
        'conflict',
        'loop',
        'impossible-condition',
        'unreachable',
        'tag-fight',
      ]),
    );
  });

  it.each(cases)(
    '%s: reports exactly the expected problems, and refuses the set on an error',
    async (name) => {
      const dir = join(BROKEN, name);
      const result = await loadRulesFromDir(dir);
      const expected = readFileSync(join(dir, 'expected.txt'), 'utf8').trimEnd();
      expect(formatProblems(result.problems, 'text')).toBe(expected);
      // Warnings (unreachable, tag-fight) leave the set usable, as validate's exit code 0 does.
      const errors = result.problems.some((p) => p.severity === 'error');
      expect(result.ruleSet === undefined).toBe(errors);
      expect(errors).toBe(!WARNING_CASES.includes(name));
    },
  );

  it.each(cases.filter((c) => c !== 'every-problem-at-once'))(
    '%s: every problem is of its class',
    async (name) => {
      const { problems } = await loadRulesFromDir(join(BROKEN, name));
      expect(problems.length).toBeGreaterThan(0);
      expect(new Set(problems.map((p) => p.code))).toEqual(new Set([name]));
    },
  );

  it('reports problems of many classes from one file in a single run', async () => {
    const { problems } = await loadRulesFromDir(join(BROKEN, 'every-problem-at-once'));
    expect(new Set(problems.map((p) => p.code)).size).toBeGreaterThanOrEqual(8);
  });
});
