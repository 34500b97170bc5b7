// A directory of deliberately broken rule sets, one per problem class the validator knows
// (RULE_PROBLEM_CODES, compared exactly): each must produce exactly the messages in its
// expected.txt, with the right line and column, all in one run. A fixture is read as
// `crm-rules validate` and `crm-rules test` read a directory: its rules, the CRM snapshot beside
// them (.crm-snapshot.json) and its rule tests (*.test.yaml); `inputs.txt` names other inputs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadInputs } from '../../../src/tooling/cli/load-inputs';
import { formatProblems } from '../../../src/language/rules/format/format-problems';
import { isRuleTestFile, sortProblems, type RuleFile } from '../../../src/language/rules/format/load-rules';
import { RULE_PROBLEM_CODES } from '../../../src/language/rules/format/problem-codes';
import { runRuleTests } from '../../../src/language/rules/testing/rule-tests';

const BROKEN = relative(process.cwd(), join(__dirname, 'broken'));
const ALL_AT_ONCE = 'every-problem-at-once';
const cases = readdirSync(BROKEN).sort();
const WARNING_CASES = [
  'unreachable',
  'tag-fight',
  'redundant',
  'frequent-schedule',
  'empty-segment',
  'host-not-allowed',
  'too-many-paths',
  'missing-default',
  'duplicate-case',
  'no-assign-first',
];

async function validate(name: string) {
  const dir = join(BROKEN, name);
  const listed = join(dir, 'inputs.txt');
  const inputs = existsSync(listed)
    ? readFileSync(listed, 'utf8')
        .trim()
        .split('\n')
        .map((input) => join(dir, input))
    : [dir];
  // `allowed-hosts.txt`: the HTTP_ACTION_ALLOWED_HOSTS the fixture is validated with.
  const hostsFile = join(dir, 'allowed-hosts.txt');
  const allowedHosts = existsSync(hostsFile) ? readFileSync(hostsFile, 'utf8').trim().split('\n') : undefined;
  // `secret-hosts.txt`: the HTTP_ACTION_SECRET_HOSTS (NAME=host per line) it is validated with.
  const secretsFile = join(dir, 'secret-hosts.txt');
  const secretHosts: Record<string, string[]> = {};
  if (existsSync(secretsFile))
    for (const line of readFileSync(secretsFile, 'utf8').trim().split('\n')) {
      const [name, host] = line.split('=');
      (secretHosts[name] ??= []).push(host);
    }
  const { result } = await loadInputs(inputs, undefined, {
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(existsSync(secretsFile) ? { secretHosts } : {}),
  });
  const tests: RuleFile[] = existsSync(dir)
    ? readdirSync(dir)
        .filter(isRuleTestFile)
        .map((file) => ({ path: join(dir, file), text: readFileSync(join(dir, file), 'utf8') }))
    : [];
  const testProblems = result.ruleSet ? (await runRuleTests(result.ruleSet, tests)).problems : [];
  return {
    ruleSet: result.ruleSet,
    ruleErrors: result.problems.some((p) => p.severity === 'error'),
    problems: sortProblems([...result.problems, ...testProblems]),
  };
}

describe('broken rule files', () => {
  it('has one case per problem class the validator knows, and no other', () => {
    expect(cases.filter((c) => c !== ALL_AT_ONCE)).toEqual([...RULE_PROBLEM_CODES].sort());
  });

  it.each(cases)(
    '%s: reports exactly the expected problems, and refuses the set on an error',
    async (name) => {
      const result = await validate(name);
      const expected = readFileSync(join(BROKEN, name, 'expected.txt'), 'utf8').trimEnd();
      expect(formatProblems(result.problems, 'text')).toBe(expected);
      // Warnings leave the set usable, as validate's exit code 0 does; an error in a rule test
      // fails the tests, not the set.
      const errors = result.problems.some((p) => p.severity === 'error');
      expect(result.ruleSet === undefined).toBe(result.ruleErrors);
      expect(result.ruleErrors).toBe(errors && name !== 'test-file');
      expect(errors).toBe(!WARNING_CASES.includes(name));
    },
  );

  it.each(cases.filter((c) => c !== ALL_AT_ONCE))('%s: every problem is of its class', async (name) => {
    const { problems } = await validate(name);
    expect(problems.length).toBeGreaterThan(0);
    expect(new Set(problems.map((p) => p.code))).toEqual(new Set([name]));
  });

  it("names every problem class in RULES.md's table of codes", () => {
    const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'RULES.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## What the validator reports'), doc.indexOf('**Loops.**'));
    const rows = section.split('\n').filter((line) => line.startsWith('| '));
    const named = new Set(
      rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([a-z-]+)`/g)].map((m) => m[1])),
    );
    expect(RULE_PROBLEM_CODES.filter((code) => !named.has(code))).toEqual([]);
  });

  it('reports problems of many classes from one file in a single run', async () => {
    const { problems } = await validate(ALL_AT_ONCE);
    expect(new Set(problems.map((p) => p.code)).size).toBeGreaterThanOrEqual(8);
  });
});
