// The events waiting runs need delivered even when no rule is triggered by them: the kinds a
// wait's `until` listens to, and contact.deleted (which cancels every wait of the contact).
import { timingPlanOf } from '../rules/run-gates';
import type { RuleDefinition } from '../rules/rule-types';

export function waitEventKinds(rules: readonly RuleDefinition[]): string[] {
  const kinds = new Set<string>();
  for (const rule of rules) {
    if (!rule.enabled || rule.mode !== 'live' || !timingPlanOf(rule)) continue;
    kinds.add('contact.deleted'); // any timing can make a run wait
    for (const wait of rule.waits ?? []) for (const k of wait.until?.events ?? []) kinds.add(k);
  }
  return [...kinds].sort();
}
