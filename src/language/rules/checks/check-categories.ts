// The categories rules' messages name (message-categories.ts), checked against policy.yaml's:
// an unknown one is refused (`unknown-category`) at the action's file:line:col. Pure.
import type { MessagingPolicy } from '../../policy/messaging-policy';
import { declaredCategory } from '../../policy/policy-categories';
import { knownCategories } from '../../policy/load-policy-categories';
import type { LoadedRule } from '../format/loaded-rule';
import { actionPath } from '../format/parse-steps';
import type { RuleProblem, SourcePosition } from '../format/rule-types';
import { hint } from '../format/suggest';

const same = (a: SourcePosition, b: SourcePosition) => a.line === b.line && a.col === b.col;

/** Every category a rule's messages name, checked against the policy's (default only without one). */
export function checkCategories(
  loaded: readonly LoadedRule[],
  policy: MessagingPolicy | undefined,
): RuleProblem[] {
  const known = knownCategories(policy);
  const problems: RuleProblem[] = [];
  for (const { def, at } of loaded) {
    const onLeave = def.trigger.kind === 'schedule' ? def.trigger.onLeave : [];
    const written = [
      ...def.actions.map((a, i) => [a, actionPath(def, i)] as const),
      ...onLeave.map((a, i) => [a, ['on-leave', i]] as const),
    ];
    for (const [a, path] of written) {
      const c = declaredCategory(a);
      if (c === undefined || known.includes(c)) continue;
      // Where it is written: beside the action, else the rule's own `category:`.
      const own = at.pos([...path, 'category'], 'key');
      const where = same(own, at.pos(path)) ? at.pos(['category'], 'key') : own;
      problems.push({
        ...where,
        severity: 'error',
        code: 'unknown-category',
        message: `unknown category "${c}"${hint(c, known)}${policy ? '' : ' (declare it under categories: in policy.yaml)'}`,
      });
    }
  }
  return problems;
}
