// A case's `expect:` list: actions written as in `do:`, each maybe marked `skipped: <reason>`
// when the engine would skip it (a guard, the policy, a control arm; live-guards.ts). And the
// case's `guards:` switch. Problems are reported like rule problems, at the item.
import type { ValidateFunction } from 'ajv';
import type { SkipReason } from '../../catalogue/action-definition';
import { parseActions } from '../format/parse-actions';
import { isPlainObject, type ProblemCollector } from '../format/problem-collector';
import type { RuleAction } from '../format/rule-types';
import { schemaIssues } from '../format/schema-problems';
import { hint } from '../format/suggest';

export interface ExpectedAction {
  action: RuleAction;
  /** `skipped: needs_assignee`: the action is listed but the engine would not send it. */
  skipped?: string;
}

/** The reasons a rule test can give a skipped action (the engine records the same ones). */
export const TEST_SKIP_REASONS = [
  'needs_assignee',
  'contact_blocked',
  'policy_cap',
  'quiet_hours',
  'suppressed',
  'holdout',
  'control_arm',
] as const satisfies readonly SkipReason[];

/** `guards: off` (or false) turns the guards off; absent, `on` or true keeps them. */
export const guardsOf = (value: unknown): boolean => value !== 'off' && value !== false;

/** `none` or a list of actions; undefined when an item has a problem (reported on ctx). */
export function expectedActions(
  raw: unknown,
  ctx: ProblemCollector,
  validateAction: ValidateFunction,
): ExpectedAction[] | undefined {
  if (raw === 'none') return [];
  if (!Array.isArray(raw)) return undefined;
  const before = ctx.errorCount();
  const skips: (string | undefined)[] = [];
  const items = raw.map((item: unknown, i) => {
    if (!isPlainObject(item) || !('skipped' in item)) return item;
    const { skipped, ...action } = item;
    if (!(TEST_SKIP_REASONS as readonly unknown[]).includes(skipped))
      ctx.error(
        ['expect', i, 'skipped'],
        'test-file',
        `skipped takes a reason the engine gives (${TEST_SKIP_REASONS.join(', ')}), not ${JSON.stringify(skipped)}${hint(String(skipped), TEST_SKIP_REASONS, 0)}`,
      );
    skips[i] = String(skipped);
    return action;
  });
  items.forEach((item, i) => {
    for (const issue of schemaIssues(validateAction, item))
      ctx.error(
        ['expect', i, ...issue.path],
        'test-file',
        issue.message.replace(/^rule /, 'action '),
        issue.target,
      );
  });
  const actions = parseActions(items, ['expect'], ctx);
  if (!actions || ctx.errorCount() !== before) return undefined;
  return actions.map((action, i) => (skips[i] ? { action, skipped: skips[i] } : { action }));
}
