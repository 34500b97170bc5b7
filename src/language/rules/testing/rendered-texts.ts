// What a rule test shows of an action's templated values: each rendered with the facts of the
// moment the action runs (after a wait with on-event, that event), as the runner renders them.
import { actionDefinition } from '../../catalogue/catalogue';
import { isTemplated } from '../../catalogue/action-definition';
import { renderTemplate } from '../../catalogue/template-values';
import type { EvaluationFacts, RuleAction } from '../format/rule-types';

/** The rendered text of each templated value, in the action's order; [] when it has none. */
export function renderedTexts(action: RuleAction, facts: EvaluationFacts): string[] {
  const view = { contact: facts.contact, event: facts.event, message: facts.message, failure: facts.failure };
  return (actionDefinition(action.type).templates?.(action) ?? [])
    .filter((t) => isTemplated(t.text))
    .map((t) => renderTemplate(t.text, view));
}
