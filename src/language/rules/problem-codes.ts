// Every class of problem the rules validator reports, in one list: RuleProblem's `code` is typed by
// it, so a check cannot report a new class without adding it here, and the broken-rules suite
// (test/rules/broken) compares its fixtures with this list exactly.
export const RULE_PROBLEM_CODES = [
  'io',
  'yaml-syntax',
  'schema',
  'duplicate-id',
  'unknown-event',
  'unknown-operator',
  'unknown-fact',
  'unavailable-fact',
  'unknown-action',
  'unknown-name',
  'invalid-action',
  'invalid-value',
  'invalid-cron',
  'frequent-schedule',
  'empty-segment',
  'invalid-timezone',
  'invalid-window',
  'invalid-wait',
  'invalid-limit',
  'invalid-segment',
  'unsupported-segment-filter',
  'invalid-regex',
  'unsafe-regex',
  'redundant',
  'conflict',
  'loop',
  'impossible-condition',
  'unreachable',
  'tag-fight',
  'test-file',
  'change-without-previous',
  'host-not-allowed',
  'secret-host-not-allowed',
  'invalid-policy',
  'duplicate-policy',
  'invalid-calendar',
  'unknown-calendar',
  'unknown-category',
  'empty-arm',
  'too-many-paths',
  'missing-default',
  'duplicate-case',
  'invalid-pool',
] as const;

export type RuleProblemCode = (typeof RULE_PROBLEM_CODES)[number];

export function isRuleProblemCode(value: unknown): value is RuleProblemCode {
  return (RULE_PROBLEM_CODES as readonly unknown[]).includes(value);
}
