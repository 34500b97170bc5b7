// Set-level check: rules on one trigger that undo each other's tag or block (conflict).
import { actionLabel } from '../catalogue/catalogue';
import { exclusiveFields, undoing } from './condition-leaves';
import { eventsOf, where, type LoadedRule } from './loaded-rule';
import type { RuleDefinition, RuleProblem } from './rule-types';

/**
 * Whether two actions of one rule can run at the same moment of one run: not when a wait comes
 * between them (the later one is a deliberate follow-up: tag while waiting, clear on a reply), nor
 * when they sit in different arms of one branch (a run takes one arm).
 */
export function sameMoment(def: RuleDefinition, first: number, second: number): boolean {
  const [a, b] = first < second ? [first, second] : [second, first];
  if ((def.waits ?? []).some((w) => w.beforeAction > a && w.beforeAction <= b)) return false;
  const armOf = (arms: { from: number; to: number }[], i: number) =>
    arms.findIndex((r) => i >= r.from && i < r.to);
  return !(def.branches ?? []).some((br) => {
    const [armA, armB] = [armOf(br.arms, a), armOf(br.arms, b)];
    return armA >= 0 && armB >= 0 && armA !== armB;
  });
}

/** Live, enabled event rules: the ones whose actions reach the CRM when an event comes in. */
function acting(rules: LoadedRule[]): LoadedRule[] {
  return rules.filter((r) => r.def.enabled && r.def.mode === 'live' && r.def.trigger.kind === 'event');
}

export function checkConflicts(rules: LoadedRule[]): RuleProblem[] {
  return findConflicts(rules).map((c) => c.problem);
}

/** Every conflict: its problem, the rule and action reported, and the other rule (for the rule graph). */
export function findConflicts(
  rules: LoadedRule[],
): { problem: RuleProblem; rule: string; actionIndex: number; other: string }[] {
  const live = acting(rules);
  const problems: { problem: RuleProblem; rule: string; actionIndex: number; other: string }[] = [];
  live.forEach((b, j) => {
    for (const a of live.slice(0, j + 1)) {
      const shared = eventsOf(a.def).filter((k) => eventsOf(b.def).includes(k));
      if (shared.length === 0) continue;
      // Rules that can never match the same contact are not in conflict.
      if (a !== b && exclusiveFields(a.def, b.def).length > 0) continue;
      b.def.actions.forEach((bAction, bi) => {
        const undone = a.def.actions.some(
          (aAction, ai) =>
            (a !== b || (ai < bi && sameMoment(a.def, ai, bi))) && undoing(bAction, aAction)?.conflict,
        );
        if (!undone) return;
        const what =
          a === b
            ? `this rule also does the opposite of ${actionLabel(bAction)}`
            : `rule "${a.def.id}" (${where(a.def.source)}) does the opposite`;
        const problem: RuleProblem = {
          ...b.at.pos(['do', b.def.actionSteps?.[bi] ?? bi]),
          severity: 'error',
          code: 'conflict',
          message: `conflict on ${shared.join(', ')}: ${actionLabel(bAction)} in rule "${b.def.id}", and ${what}; make their conditions exclusive or merge the rules`,
        };
        problems.push({ problem, rule: b.def.id, actionIndex: bi, other: a.def.id });
      });
    }
  });
  return problems;
}
