// `{{steps.<name>.<key>}}` reads what an earlier http-request of the same run saved: the name
// must be an http-request before the action that reads it, and the key one of its `save:` keys.
// Step names are unique within a rule. Pure.
import { actionDefinition } from '../../catalogue/catalogue';
import type { RuleAction } from '../format/rule-types';
import type { YamlPath } from '../format/yaml-source';

export interface StepRefProblem {
  /** The action's index in the list, and the path inside its value. */
  index: number;
  path: YamlPath;
  message: string;
}

const REF = /\{\{\{?\s*steps\.([^.}\s]+)\.([^.}\s]+)\s*\}?\}\}/g;

export function checkStepRefs(actions: readonly (RuleAction | undefined)[]): StepRefProblem[] {
  const problems: StepRefProblem[] = [];
  const saved = new Map<string, readonly string[]>();
  actions.forEach((action, index) => {
    if (!action) return;
    for (const t of actionDefinition(action.type).templates?.(action) ?? [])
      for (const [, name, key] of t.text.matchAll(REF)) {
        const keys = saved.get(name);
        const message =
          keys === undefined
            ? `{{steps.${name}.${key}}}: no http-request named "${name}" comes before this action`
            : keys.includes(key)
              ? undefined
              : `{{steps.${name}.${key}}}: http-request "${name}" saves ${keys.length ? keys.join(', ') : 'nothing'}`;
        if (message) problems.push({ index, path: t.path, message });
      }
    if (action.type === 'http-request') {
      if (saved.has(action.name))
        problems.push({
          index,
          path: ['name'],
          message: `another http-request of this rule is named "${action.name}"`,
        });
      saved.set(action.name, Object.keys(action.save ?? {}));
    }
  });
  return problems;
}
