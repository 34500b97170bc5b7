// The own-write loop brake's constants and which rules it applies to (docs/RULES.md, Loops). Its
// own file: the events worker names the suppression (metric, log line) without loading create-run.
import { actionDefinition } from '../../language/catalogue/catalogue';
import type { RuleDefinition } from '../../language/rules/format/rule-types';
import type { RunStatus } from '../../persistence/ledger/run.entity';

/** Events the engine's own writes cause do not re-trigger the same rule within this window. */
export const OWN_WRITE_LOOP_WINDOW_MS = 120_000;

export const OWN_WRITE_LOOP = Object.freeze({ status: 'suppressed' as RunStatus, reason: 'own_write_loop' });

const loops = new WeakMap<RuleDefinition, boolean>();

/** Whether any of the rule's actions makes the CRM emit contact.updated (once per rule definition). */
export function canLoop(rule: RuleDefinition): boolean {
  let known = loops.get(rule);
  if (known === undefined) {
    known = rule.actions.some((a) => actionDefinition(a.type).effect.emits(a).includes('contact.updated'));
    loops.set(rule, known);
  }
  return known;
}
