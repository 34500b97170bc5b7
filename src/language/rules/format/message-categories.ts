// `category:` of a rule (every customer message it sends) or of one action (beside it, like
// `assign-first`): stamped on each customer message at load, so the action carries its category
// wherever it travels (the ledger's action, the gate, rule tests, forecast, diff) and the rule's
// version changes with it. A category the policy does not know is refused (`unknown-category`):
// the message would silently get the default's caps and quiet hours (check-categories.ts). Pure.
import { isCustomerMessage } from '../../policy/customer-messages';
import { declaredCategory } from '../../policy/policy-categories';
import type { ProblemCollector } from './problem-collector';
import type { RuleAction } from './rule-types';
import type { YamlPath } from './yaml-source';

/** The rule's category on each of its customer messages that declares none. */
export function stampRuleCategory(actions: RuleAction[], category: unknown): RuleAction[] {
  if (typeof category !== 'string') return actions;
  return actions.map((a) =>
    isCustomerMessage(a.type) && declaredCategory(a) === undefined
      ? ({ ...a, category } as unknown as RuleAction)
      : a,
  );
}

/** An action's own `category:`: only customer messages have one. */
export function withActionCategory(
  action: RuleAction | undefined,
  category: unknown,
  at: YamlPath,
  ctx: ProblemCollector,
): RuleAction | undefined {
  if (category === undefined || !action) return action;
  if (!isCustomerMessage(action.type)) {
    ctx.error(
      [...at, 'category'],
      'invalid-action',
      `category goes with customer messages (send-message, send-template), not ${action.type}`,
      'key',
    );
    return undefined;
  }
  return typeof category === 'string' ? ({ ...action, category } as unknown as RuleAction) : action;
}

/** The action as written without its category (rule tests compare it only when expected). */
export function withoutCategory(action: RuleAction): RuleAction {
  if (declaredCategory(action) === undefined) return action;
  const { category: _category, ...rest } = action as RuleAction & { category?: string };
  return rest as RuleAction;
}
