// Templated values (`Hi {{contact.name}}`) in message texts, template parameters and field
// values: mustache syntax, logic-less and without code execution, restricted further to plain
// `{{fact.path}}` tags with a closed set of filters (`{{contact.email | default: "none"}}`,
// template-filters.ts) so a rule reads like what it sends. Checked offline against the facts
// the trigger carries; rendered at run time without HTML escaping (the CRM takes plain text).
import Mustache from 'mustache';
import {
  factUnavailableReason,
  FAILURE_OUTSIDE_ARM,
  FACT_ROOTS,
  lookupField,
  type FactRoot,
  type FieldType,
} from '../rules/format/fact-shapes';
import {
  applyFilters,
  parseTag,
  TagSyntaxError,
  type FilterOptions,
  type TagExpression,
} from './template-filters';
import { closest } from '../rules/format/suggest';
import type { TriggerKinds } from './action-definition';

/** The facts a template may read (`now` is not a value worth printing). */
const TEMPLATE_ROOTS: readonly FactRoot[] = ['contact', 'event', 'message', 'failure'];

/** Where a template is written: inside an `on-failure:` arm it may read failure.reason / failure.class. */
export interface TemplateScope {
  inFailureArm?: boolean;
}

type Token = [string, string, number, number];

export interface TemplateProblem {
  /**
   * unknown-fact: no such fact or field; unavailable-fact: the trigger does not carry it;
   * invalid-action: not a plain value or a bad filter; missing-default (a warning): the value may
   * be absent for the trigger and the tag has no `default`, so it would render empty.
   */
  code: 'unknown-fact' | 'unavailable-fact' | 'invalid-action' | 'missing-default';
  message: string;
  severity?: 'warning';
}

/** What is wrong with the template in this trigger; [] when it can be rendered. */
export function templateProblems(
  text: string,
  trigger: TriggerKinds,
  scope: TemplateScope = {},
): TemplateProblem[] {
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
    let tag: TagExpression;
    try {
      tag = parseTag(name);
    } catch (err) {
      if (!(err instanceof TagSyntaxError)) throw err;
      problems.push({ code: 'invalid-action', message: `{{${name}}}: ${err.message}` });
      continue;
    }
    const problem = factProblem(tag.path, trigger, scope);
    if (problem) problems.push({ code: problem.code, message: `{{${name}}}: ${problem.message}` });
    else if (!tag.filters.some((f) => f.name === 'default')) {
      const absent = mayBeAbsent(tag.path, trigger);
      if (absent)
        problems.push({
          code: 'missing-default',
          severity: 'warning',
          message: `{{${name}}}: ${absent} and would render empty; add a default: {{${tag.path} | default: "…"}}`,
        });
    }
  }
  return problems;
}

/** Why a known fact path may have no value when the rule runs, or undefined when it always has one. */
function mayBeAbsent(path: string, trigger: TriggerKinds): string | undefined {
  const [root, ...segments] = path.split('.');
  if (root === 'steps') return undefined; // a failed request stops the run before its readers
  const kinds = trigger === 'schedule' ? [undefined] : trigger;
  for (const kind of kinds) {
    const found = lookupField(root as FactRoot, segments, kind);
    if ('error' in found) continue;
    const reason = absentReason(found.type, path);
    if (reason) return reason;
  }
  return undefined;
}

function absentReason(type: FieldType, path: string): string | undefined {
  if (type.kind === 'any') return `${path} is an open field the CRM may not set`;
  if ('nullable' in type && type.nullable) return `${path} may be null`;
  return undefined;
}

type FactProblem = { code: 'unknown-fact' | 'unavailable-fact'; message: string };

function factProblem(name: string, trigger: TriggerKinds, scope: TemplateScope): FactProblem | undefined {
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
  // The failed action's facts exist for any trigger, but only in its on-failure arm.
  if (root === 'failure')
    return scope.inFailureArm
      ? lookupProblem(root, segments, undefined)
      : { code: 'unavailable-fact', message: FAILURE_OUTSIDE_ARM };
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
  /** Inside an on-failure arm: the failed action's reason and class. */
  failure?: { reason: string; class: 'failed' | 'dead' };
  /** What earlier http-request steps of the run saved: steps.<name>.<key>. */
  steps?: Record<string, Record<string, unknown>>;
}

/**
 * Renders plain text: a missing value renders empty (or its `default`), nothing is HTML-escaped.
 * `options.zone`: where `date` formats when the filter names no zone (default UTC; rules name the
 * zone in the filter, `date: "HH:mm", "Europe/Lisbon"`, so every path renders the same).
 */
export function renderTemplate(text: string, view: TemplateView, options: FilterOptions = {}): string {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(text) as unknown as Token[];
  } catch {
    return text; // validate refuses it; mustache would have thrown
  }
  let out = '';
  for (const [kind, name] of tokens) {
    if (kind === 'text') out += name;
    else if (kind === 'name' || kind === '&') out += printable(tagValue(name, view, options));
  }
  return out;
}

const compiled = new Map<string, TagExpression | undefined>();

function tagValue(content: string, view: TemplateView, options: FilterOptions): unknown {
  let tag = compiled.get(content);
  if (tag === undefined && !compiled.has(content)) {
    try {
      tag = parseTag(content);
    } catch {
      tag = undefined; // refused by validate: renders empty, as mustache read it as an unknown name
    }
    if (compiled.size > 5000) compiled.clear();
    compiled.set(content, tag);
  }
  if (!tag) return undefined;
  const value = lookup(view, tag.path);
  return tag.filters.length ? applyFilters(value, tag.filters, options) : value;
}

/** Own properties only, as plain data: nothing inherited or callable is ever read or run. */
function lookup(view: TemplateView, path: string): unknown {
  if (path === '.') return undefined;
  let value: unknown = view;
  for (const segment of path.split('.')) {
    if (value === null || value === undefined) return undefined;
    const holder = Object(value) as Record<string, unknown>;
    if (!Object.hasOwn(holder, segment)) return undefined;
    value = holder[segment];
  }
  return typeof value === 'function' ? undefined : value;
}

const printable = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
