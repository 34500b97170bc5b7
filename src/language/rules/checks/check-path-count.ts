// Set-level check: a rule with more execution paths than the loop, conflict and tag-fight checks
// read (rule-paths.ts, PATH_CAP): those checks see only its first paths, so it is said (a warning).
import type { LoadedRule } from '../format/loaded-rule';
import { PATH_CAP, rulePaths } from '../format/rule-paths';
import type { RuleProblem } from '../format/rule-types';

export function checkPathCount(rules: LoadedRule[]): RuleProblem[] {
  return rules
    .filter((r) => rulePaths(r.def).capped)
    .map((r) => ({
      ...r.at.pos(['do']),
      severity: 'warning',
      code: 'too-many-paths',
      message: `rule "${r.def.id}" has more than ${PATH_CAP} paths through its branches: the loop, conflict and tag-fight checks read only the first ${PATH_CAP}; split it into smaller rules or flatten branches in a row`,
    }));
}
