import { loadConfig } from './load-config';
import { engineStartProblems } from './start-checks';

const KEY = 'a'.repeat(64);
const REAL_CRM = { CRM_BASE_URL: 'https://crm.example', CRM_API_KEY: 'sk_live_x' };

describe('engineStartProblems', () => {
  it.each<[string, Record<string, string>, boolean, RegExp[]]>([
    ['the embedded demo: nothing required', {}, true, []],
    ['a real CRM with a key and own rules', { ...REAL_CRM, WEBHOOK_SECRET_KEY: KEY }, false, []],
    [
      'sealing key required with a real CRM',
      REAL_CRM,
      false,
      [/^WEBHOOK_SECRET_KEY is required when CRM_BASE_URL is set/],
    ],
    [
      'example rules never run against a real CRM',
      { ...REAL_CRM, WEBHOOK_SECRET_KEY: KEY },
      true,
      [/^RULES_DIR \(rules\) holds the repository's example rules/],
    ],
    [
      'ALLOW_EXAMPLE_RULES=true lets them',
      { ...REAL_CRM, WEBHOOK_SECRET_KEY: KEY, ALLOW_EXAMPLE_RULES: 'true' },
      true,
      [],
    ],
    ['both at once', REAL_CRM, true, [/^WEBHOOK_SECRET_KEY/, /^RULES_DIR/]],
  ])('%s', (_name, env, exampleRules, expected) => {
    const problems = engineStartProblems(loadConfig(env), { exampleRules });
    expect(problems).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(problems[i]).toMatch(re));
  });

  it('never echoes the API key or the CRM key', () => {
    const text = engineStartProblems(loadConfig(REAL_CRM), { exampleRules: true }).join('\n');
    expect(text).not.toContain('sk_live_x');
  });
});
