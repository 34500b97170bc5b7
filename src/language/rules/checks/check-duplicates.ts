// Set-level check: two rules with one id.
import { where } from '../format/loaded-rule';
import type { RuleProblem, SourcePosition } from '../format/rule-types';
import type { Locator } from '../format/yaml-source';

export function checkDuplicateIds(ids: { id: string; at: Locator }[]): RuleProblem[] {
  const first = new Map<string, SourcePosition>();
  const problems: RuleProblem[] = [];
  for (const { id, at } of ids) {
    const pos = at.pos(['rule']);
    const seen = first.get(id);
    if (seen)
      problems.push({
        ...pos,
        severity: 'error',
        code: 'duplicate-id',
        message: `duplicate rule id "${id}": already defined at ${where(seen)}`,
      });
    else first.set(id, pos);
  }
  return problems;
}
