// What the validator accepts but the running engine does not execute yet: waits, windows,
// limits and at-most are checked and simulated offline (crm-rules validate / test) before the
// runner carries them out. Running such a rule live would do its actions at once, past its
// window or its limit, so the engine refuses the set instead, naming each rule.
import type { LoadResult } from './load-rules';
import type { RuleDefinition, RuleProblem } from './rule-types';

const TIMING_KEYS = ['waits', 'window', 'actionWindows', 'limit', 'atMost'] as const;

function unexecuted(rule: RuleDefinition): string[] {
  return TIMING_KEYS.filter((k) => rule[k] !== undefined);
}

export function refuseUnexecutedTiming(result: LoadResult): LoadResult {
  if (!result.ruleSet) return result;
  const problems: RuleProblem[] = result.ruleSet.rules
    .filter((r) => r.enabled && r.mode === 'live' && unexecuted(r).length > 0)
    .map((r) => ({
      ...r.source,
      severity: 'error',
      code: 'not-executed',
      message: `rule "${r.id}" uses ${unexecuted(r).join(', ')}, which this engine version validates and tests but does not execute yet; run it with mode: shadow or enabled: false`,
    }));
  return problems.length === 0 ? result : { problems: [...result.problems, ...problems] };
}
