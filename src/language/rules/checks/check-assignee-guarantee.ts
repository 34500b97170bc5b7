// `no-assign-first` (a warning): a customer message is skipped live (`needs_assignee`) when the
// contact has no assignee, and rule tests now say so too. Warned where nothing guarantees one: no
// `assign-first`, no earlier `assign` in the rule, no top-level condition requiring an assignee,
// and no segment filter on assignees. Pure, so the table in check-assignee-guarantee.spec.ts pins it.
import { actionDefinition } from '../../catalogue/catalogue';
import type { LoadedRule } from '../format/loaded-rule';
import { actionPath } from '../format/parse-steps';
import type { RuleAction, RuleProblem } from '../format/rule-types';

/** The warnings of a loaded set (rules with errors never load, so they get no advice). */
export function checkAssigneeGuarantee(loaded: readonly LoadedRule[]): RuleProblem[] {
  return loaded.flatMap(({ def, at }) => {
    const guaranteed =
      def.trigger.kind === 'schedule'
        ? segmentRequiresAssignee(def.trigger.segment.filters)
        : conditionsRequireAssignee(def.conditions);
    return messagesWithoutAssignee(def.actions, guaranteed).map((i) => ({
      ...at.pos([...actionPath(def, i), def.actions[i].type]),
      severity: 'warning' as const,
      code: 'no-assign-first' as const,
      message: `${def.actions[i].type} is skipped live (needs_assignee) for a contact with no assignee, and nothing here guarantees one: add assign-first, an assign before it, or a condition requiring contact.assigneeId`,
    }));
  });
}

type Raw = Record<string, unknown>;

/** Indexes of the messages (in do-order) that may meet a contact with no assignee. */
export function messagesWithoutAssignee(
  actions: readonly (RuleAction | undefined)[],
  guaranteed: boolean,
): number[] {
  if (guaranteed) return [];
  const out: number[] = [];
  let assigned = false;
  actions.forEach((action, i) => {
    if (!action) return;
    if (action.type === 'assign') assigned = true;
    if (action.type === 'unassign') assigned = false;
    if (!actionDefinition(action.type).messaging) return;
    if (!assigned && !('assignFirst' in action && action.assignFirst)) out.push(i);
  });
  return out;
}

/** Whether `if` requires an assignee on every match: a leaf on contact.assigneeId at the top or under `all`. */
export function conditionsRequireAssignee(conditions: unknown): boolean {
  if (!conditions || typeof conditions !== 'object' || Array.isArray(conditions)) return false;
  const c = conditions as Raw;
  if (Array.isArray(c.all)) return c.all.some(conditionsRequireAssignee);
  // Compiled leaves read `contact` with path `$.assigneeId` (check-conditions.ts).
  const readsAssignee =
    c.fact === 'contact.assigneeId' || (c.fact === 'contact' && c.path === '$.assigneeId');
  if (!readsAssignee) return false;
  const { operator, value } = c;
  if (operator === 'exists') return value === true;
  if (operator === 'changedTo' || operator === 'equal') return typeof value === 'string';
  if (operator === 'notEqual') return value === null;
  if (operator === 'in') return Array.isArray(value) && value.length > 0 && !value.includes(null);
  return false;
}

/** A segment whose filters name assignees holds only assigned contacts. */
export function segmentRequiresAssignee(segment: unknown): boolean {
  if (!segment || typeof segment !== 'object') return false;
  const ids = (segment as Raw).assigneeIds;
  return Array.isArray(ids) && ids.length > 0;
}
