// Templated values (`Hi {{contact.name}}`) in message texts, template parameters and field
// values: mustache, logic-less and without code execution, restricted further to plain
// `{{fact.path}}` tags so a rule reads like what it sends. Checked offline against the facts
// the trigger carries; rendered at run time without HTML escaping (the CRM takes plain text).
import Mustache from 'mustache';
import { factUnavailableReason, FACT_ROOTS, lookupField, type FactRoot } from '../rules/fact-shapes';
import { closest } from '../rules/suggest';
import type { TriggerKinds } from './action-definition';

/** The facts a template may read (`now` is not a value worth printing). */
const TEMPLATE_ROOTS: readonly FactRoot[] = ['contact', 'event', 'message'];

type Token = [string, string, number, number];

export interface TemplateProblem {
  /** unknown-fact: no such fact or field; unavailable-fact: the trigger does not carry it; invalid-action: not a plain value. */
  code: 'unknown-fact' | 'unavailable-fact' | 'invalid-action';
  message: string;
}

/** What is wrong with the template in this trigger; [] when it can be rendered. */
export function templateProblems(text: string, trigger: TriggerKinds): TemplateProblem[] {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(text) as unknown as Token[];
  } catch (err) {
    return [
      {
        code: 'invalid-action',
        message: `template ${JSON.stringify(text)} does not parse: ${(err as Error).message}`,
      },
    ];
  }
  const problems: TemplateProblem[] = [];
  for (const [kind, name] of tokens) {
    if (kind === 'text' || kind === '!') continue;
    if (kind !== 'name' && kind !== '&') {
      const message = `templates take plain {{fact.path}} values only, not sections or partials ({{${kind}${name}}})`;
      problems.push({ code: 'invalid-action', message });
      continue;
    }
    const problem = factProblem(name, trigger);
    if (problem) problems.push({ code: problem.code, message: `{{${name}}}: ${problem.message}` });
  }
  return problems;
}

type FactProblem = { code: 'unknown-fact' | 'unavailable-fact'; message: string };

function factProblem(name: string, trigger: TriggerKinds): FactProblem | undefined {
  const [root, ...segments] = name.split('.');
  // Values an earlier http-request saved (rules/check-step-refs.ts checks the name and key).
  if (root === 'steps')
    return segments.length === 2 && segments.every((s) => s !== '')
      ? undefined
      : { code: 'unknown-fact', message: 'saved values read {{steps.<name>.<key>}}' };
  if (!(TEMPLATE_ROOTS as readonly string[]).includes(root)) {
    const known = FACT_ROOTS.includes(root as FactRoot) ? ` ("${root}" has no printable fields)` : '';
    return {
      code: 'unknown-fact',
      message: `unknown fact "${root}"${known}: templates read contact, event, message or steps`,
    };
  }
  if (trigger === 'schedule') {
    if (root !== 'contact')
      return {
        code: 'unavailable-fact',
        message: `fact "${root}" does not exist in segment rules (a sweep has no event): use contact`,
      };
    return lookupProblem(root, segments, undefined);
  }
  for (const kind of trigger) {
    const unavailable = factUnavailableReason(root as FactRoot, kind);
    if (unavailable) return { code: 'unavailable-fact', message: unavailable };
    const problem = lookupProblem(root as FactRoot, segments, kind);
    if (problem) return problem;
  }
  return undefined;
}

function lookupProblem(
  root: FactRoot,
  segments: string[],
  kind: string | undefined,
): FactProblem | undefined {
  const found = lookupField(root, segments, kind);
  if (!('error' in found)) return undefined;
  const near = closest(found.field, found.suggestions);
  return { code: 'unknown-fact', message: `${found.error}${near ? ` (did you mean "${near}"?)` : ''}` };
}

/** The facts a template is rendered with. */
export interface TemplateView {
  contact?: unknown;
  event?: unknown;
  message?: unknown;
  /** What earlier http-request steps of the run saved: steps.<name>.<key>. */
  steps?: Record<string, Record<string, unknown>>;
}

/** Renders plain text: a missing value renders empty, nothing is HTML-escaped. */
export function renderTemplate(text: string, view: TemplateView): string {
  return Mustache.render(text, view, {}, { escape: (value: unknown) => String(value) });
}
