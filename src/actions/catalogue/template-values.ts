// Templated values (`Hi {{contact.name}}`) in message texts, template parameters and field
// values: mustache, logic-less and without code execution, restricted further to plain
// `{{fact.path}}` tags so a rule reads like what it sends. Checked offline against the facts
// the trigger carries; rendered at run time without HTML escaping (the CRM takes plain text).
import Mustache from 'mustache';
import { factUnavailableReason, FACT_ROOTS, lookupField, type FactRoot } from '../../rules/fact-shapes';
import type { TriggerKinds } from './action-definition';

/** The facts a template may read (`now` is not a value worth printing). */
const TEMPLATE_ROOTS: readonly FactRoot[] = ['contact', 'event', 'message'];

type Token = [string, string, number, number];

/** Why the template cannot be used in this trigger (one message per problem), [] when it can. */
export function templateProblems(text: string, trigger: TriggerKinds): string[] {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(text) as unknown as Token[];
  } catch (err) {
    return [`template ${JSON.stringify(text)} does not parse: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  for (const [kind, name] of tokens) {
    if (kind === 'text' || kind === '!') continue;
    if (kind !== 'name' && kind !== '&') {
      problems.push(
        `templates take plain {{fact.path}} values only, not sections or partials ({{${kind}${name}}})`,
      );
      continue;
    }
    const problem = factProblem(name, trigger);
    if (problem) problems.push(`{{${name}}}: ${problem}`);
  }
  return problems;
}

function factProblem(name: string, trigger: TriggerKinds): string | undefined {
  const [root, ...segments] = name.split('.');
  if (!(TEMPLATE_ROOTS as readonly string[]).includes(root)) {
    const known = FACT_ROOTS.includes(root as FactRoot) ? ` ("${root}" has no printable value)` : '';
    return `unknown fact "${root}"${known}: templates read contact, event or message`;
  }
  if (trigger === 'schedule') {
    return root === 'contact'
      ? lookupProblem(root, segments, undefined)
      : `fact "${root}" does not exist in segment rules (a sweep has no event): use contact`;
  }
  for (const kind of trigger) {
    const unavailable = factUnavailableReason(root as FactRoot, kind);
    if (unavailable) return unavailable;
    const problem = lookupProblem(root as FactRoot, segments, kind);
    if (problem) return problem;
  }
  return undefined;
}

function lookupProblem(root: FactRoot, segments: string[], kind: string | undefined): string | undefined {
  const found = lookupField(root, segments, kind);
  return 'error' in found ? found.error : undefined;
}

/** The facts a template is rendered with. */
export interface TemplateView {
  contact?: unknown;
  event?: unknown;
  message?: unknown;
}

/** Renders plain text: a missing value renders empty, nothing is HTML-escaped. */
export function renderTemplate(text: string, view: TemplateView): string {
  return Mustache.render(text, view, {}, { escape: (value: unknown) => String(value) });
}
