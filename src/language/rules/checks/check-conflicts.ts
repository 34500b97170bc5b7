// Set-level check: rules on one trigger that undo each other's tag or block (conflict), read path
// by path (rule-paths.ts): two actions of one rule conflict when one path does both at one moment
// (not across a wait, never from exclusive arms); two rules when some path of each can run for the
// same contact (their `if` and arm conditions do not exclude each other), waits left out on purpose:
// the two rules' runs start at different events of the shared kind, so no wait orders them.
import { actionLabel } from '../../catalogue/catalogue';
import { exclusiveLeafFields, undoing } from '../format/condition-leaves';
import { eventsOf, where, type LoadedRule } from '../format/loaded-rule';
import { actionPath } from '../format/parse-steps';
import {
  onPath,
  pathLeaves,
  pathsWith,
  rulePaths,
  samePathMoment,
  type RulePath,
} from '../format/rule-paths';
import type { RuleDefinition, RuleProblem } from '../format/rule-types';

/** An earlier action of the same rule that `bi` undoes, on a path doing both at one moment. */
function ownOpposite(def: RuleDefinition, bi: number): { path: RulePath; otherPath?: RulePath } | undefined {
  for (let ai = 0; ai < bi; ai++) {
    if (!undoing(def.actions[bi], def.actions[ai])?.conflict) continue;
    const path = samePathMoment(def, ai, bi);
    if (path) return { path };
  }
  return undefined;
}

/** An action of rule `a` that `bi` of rule `b` undoes, with a path of each that one contact can take. */
function otherOpposite(
  a: RuleDefinition,
  b: RuleDefinition,
  bi: number,
): { path: RulePath; otherPath: RulePath } | undefined {
  const [pa, pb] = [rulePaths(a).paths, rulePaths(b).paths];
  for (let ai = 0; ai < a.actions.length; ai++) {
    if (!undoing(b.actions[bi], a.actions[ai])?.conflict) continue;
    for (const j of pathsWith(b, bi))
      for (const i of pathsWith(a, ai))
        if (exclusiveLeafFields(pathLeaves(a, pa[i]), pathLeaves(b, pb[j])).length === 0)
          return { path: pb[j], otherPath: pa[i] };
  }
  return undefined;
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
      b.def.actions.forEach((bAction, bi) => {
        const found = a === b ? ownOpposite(b.def, bi) : otherOpposite(a.def, b.def, bi);
        if (!found) return;
        const what =
          a === b
            ? `this rule also does the opposite of ${actionLabel(bAction)}`
            : `rule "${a.def.id}" (${where(a.def.source)}) does the opposite${onPath(found.otherPath)}`;
        const problem: RuleProblem = {
          ...b.at.pos(actionPath(b.def, bi)),
          severity: 'error',
          code: 'conflict',
          message: `conflict on ${shared.join(', ')}: ${actionLabel(bAction)} in rule "${b.def.id}"${onPath(found.path)}, and ${what}; make their conditions exclusive or merge the rules`,
        };
        problems.push({ problem, rule: b.def.id, actionIndex: bi, other: a.def.id });
      });
    }
  });
  return problems;
}
