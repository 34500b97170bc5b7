// Checks across rules: duplicate ids, rules on one trigger that undo each other (conflict), chains
// of rules whose CRM writes re-trigger each other without end (loop), conditions that can never be
// true, rules made redundant by others, cross-trigger tag fights, and rules with more paths than
// those checks read. One file per check.
import { checkConflicts } from './check-conflicts';
import { checkDuplicateIds } from './check-duplicates';
import { checkLoops } from './check-loops';
import { checkNames } from './check-names';
import { checkPathCount } from './check-path-count';
import { checkImpossibleConditions, checkRedundantRules } from './check-reachability';
import { checkTagFights } from './check-tag-fights';
import type { CrmSnapshot } from '../../crm-terms/crm-snapshot';
import type { LoadedRule } from '../format/loaded-rule';
import type { RuleProblem } from '../format/rule-types';
import type { Locator } from '../format/yaml-source';

/**
 * Every set-level problem; `ids` holds every rule id seen, also of rules that did not normalize.
 * Names are checked only against a snapshot of the CRM (without one the engine finds them at run time).
 */
export function checkRuleSet(
  ids: { id: string; at: Locator }[],
  rules: LoadedRule[],
  snapshot?: CrmSnapshot,
): RuleProblem[] {
  return [
    ...checkDuplicateIds(ids),
    ...checkConflicts(rules),
    ...checkLoops(rules),
    ...checkImpossibleConditions(rules),
    ...checkRedundantRules(rules),
    ...checkTagFights(rules),
    ...checkPathCount(rules),
    ...(snapshot ? checkNames(rules, snapshot) : []),
  ];
}
