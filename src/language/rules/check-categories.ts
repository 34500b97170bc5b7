// The categories rules' messages name (message-categories.ts), checked against policy.yaml's:
// an unknown one is refused (`unknown-category`) at the action's file:line:col. Pure.
import type { MessagingPolicy } from '../policy/messaging-policy';
import { declaredCategory } from '../policy/policy-categories';
import { knownCategories } from './load-policy-categories';
import type { LoadedRule } from './loaded-rule';
import { actionPath } from './parse-steps';
import type { RuleProblem, SourcePosition } from './rule-types';
import { hint } from './suggest';

const same = (a: SourcePosition, b: SourcePosition) => a.line === b.line && a.col === b.col;

/** Every category a rule's messages name, checked against the policy's (default only without one). */
export function checkCategories(
  loaded: readonly LoadedRule[],
  policy: MessagingPolicy | undefined,
): RuleProblem[] {
  const known = knownCategories(policy);
  const problems: RuleProblem[] = [];
  for (const { def, at } of loaded)
    def.actions.forEach((a, i) => {
      const c = declaredCategory(a);
      if (c === undefined || known.includes(c)) return;
      // Where it is written: beside the action, else the rule's own `category:`.
      const path = actionPath(def, i);
      const own = at.pos([...path, 'category'], 'key');
      const written = same(own, at.pos(path)) ? at.pos(['category'], 'key') : own;
      problems.push({
        ...written,
        severity: 'error',
        code: 'unknown-category',
        message: `unknown category "${c}"${hint(c, known)}${policy ? '' : ' (declare it under categories: in policy.yaml)'}`,
      });
    });
  return problems;
}
