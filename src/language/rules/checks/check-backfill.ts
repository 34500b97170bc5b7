// Whether a rule's conditions can be judged on a contact alone, without the event that normally
// starts it: what a backfill (the contacts that already match, read from the mirror) and a manual
// run evaluate. Pure.
import { usesChangeOperator } from '../../matching/change-operators';
import type { RuleTrigger } from '../format/rule-types';

/** Why the rule cannot be evaluated on a contact alone, or null when it can. */
export function contactOnlyBlocker(trigger: RuleTrigger, conditions: unknown): string | null {
  if (trigger.kind !== 'event')
    return "a segment rule already acts on its segment's members: its first sweep is its backfill";
  if (!trigger.events.some((e) => e.startsWith('contact.')))
    return `it starts on ${trigger.events.join(', ')}: there is no such event for a contact that already matches`;
  if (usesChangeOperator(conditions))
    return 'its conditions compare what an event changed (changedTo, added, ...): a contact alone has no previous state';
  const eventFact = factsRead(conditions).find((fact) => fact === 'message' || fact === 'event');
  if (eventFact) return `its conditions read ${eventFact}.*, which only an event carries`;
  return null;
}

/** The facts (`contact`, `message`, `now`...) the leaves of a condition tree read. */
function factsRead(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(factsRead);
  if (!node || typeof node !== 'object') return [];
  const n = node as Record<string, unknown>;
  if (typeof n.fact === 'string') return [n.fact];
  return [n.all, n.any, n.not].flatMap(factsRead);
}
