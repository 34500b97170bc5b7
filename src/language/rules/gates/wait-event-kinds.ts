// The events waiting runs need delivered even when no rule is triggered by them: the kinds a
// wait's `until` listens to, contact.deleted (which cancels every wait of the contact), and the
// kinds that can meet a rule's `goal` (contact.updated for contact facts, message.created for
// message facts, both for event facts).
import { compileConditions } from '../../matching/compile-conditions';
import { timingPlanOf } from './run-gates';
import type { RuleDefinition } from '../format/rule-types';

export function waitEventKinds(rules: readonly RuleDefinition[]): string[] {
  const kinds = new Set<string>();
  for (const rule of rules) {
    if (!rule.enabled || rule.mode !== 'live' || !timingPlanOf(rule)) continue;
    kinds.add('contact.deleted'); // any timing can make a run wait
    for (const wait of rule.waits ?? []) for (const k of wait.until?.events ?? []) kinds.add(k);
    for (const k of goalEventKinds(rule.goal)) kinds.add(k);
  }
  return [...kinds].sort();
}

function goalEventKinds(goal: Record<string, unknown> | undefined): string[] {
  if (!goal) return [];
  const roots = compileConditions(goal).facts;
  const any = roots.has('event');
  return [
    ...(any || roots.has('contact') ? ['contact.updated'] : []),
    ...(any || roots.has('message') ? ['message.created'] : []),
  ];
}
