// once / at-most / cooldown in rule tests: a test case is about one contact, so the runs a rule
// started in the case are that contact's runs.
import type { RuleDefinition } from '../format/rule-types';

/** Why the rule may not start another run for the contact at `now` (undefined: it may). */
export function enrolmentRefusal(
  rule: RuleDefinition,
  starts: readonly number[],
  now: Date,
): string | undefined {
  const max = rule.once ? 1 : rule.atMost;
  const last = starts[starts.length - 1];
  if (max !== undefined && starts.length >= max)
    return `already ran ${starts.length} time(s) for this contact (at most ${max})`;
  if (rule.cooldownMs !== undefined && last !== undefined && now.getTime() - last < rule.cooldownMs)
    return `in cooldown until ${new Date(last + rule.cooldownMs).toISOString()}`;
  return undefined;
}
