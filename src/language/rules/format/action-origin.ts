// Where an expanded action came from, in words, for explain, graph and rule tests: the step list
// a `call:` expanded (its file:line) and the repetition of a `repeat`.
import type { RuleDefinition } from './rule-types';

/** ` [call billing-handoff rules/steps/billing.yaml:4, repeat 2/3]`, or '' for an action written in the rule. */
export function originText(rule: Pick<RuleDefinition, 'actionOrigins'>, action: number): string {
  const origin = rule.actionOrigins?.[action];
  if (!origin) return '';
  const parts = [
    ...(origin.call ? [`call ${origin.call.name} ${origin.call.at.file}:${origin.call.at.line}`] : []),
    ...(origin.repeat ? [`repeat ${origin.repeat.n}/${origin.repeat.max}`] : []),
  ];
  return ` [${parts.join(', ')}]`;
}
