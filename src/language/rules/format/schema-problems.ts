// Validates rule documents against rule.schema.json (ajv) and turns ajv's errors into
// messages ops can act on, each at the position of the offending key or value.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import ruleSchema from './rule.schema.json';
import { isRuleProblemCode, type RuleProblemCode } from './problem-codes';
import type { RuleProblem } from './rule-types';
import { hint } from './suggest';
import type { Locator, YamlPath } from './yaml-source';

export const RULE_SCHEMA_ID = ruleSchema.$id;

let ajvWithRules: Ajv | undefined;
let validator: ValidateFunction | undefined;
let stepsValidator: ValidateFunction | undefined;

function rulesAjv(): Ajv {
  if (!ajvWithRules) {
    ajvWithRules = createAjv();
    ajvWithRules.addSchema(ruleSchema);
  }
  return ajvWithRules;
}

/** Compiled once per process: `#/definitions/rule` of the published schema. */
export function ruleValidator(): ValidateFunction {
  validator ??= rulesAjv().getSchema(`${RULE_SCHEMA_ID}#/definitions/rule`)!;
  return validator;
}

/** `#/definitions/stepList`: a named step list (rules/steps/*.yaml) that rules `call:`. */
export function stepListValidator(): ValidateFunction {
  stepsValidator ??= rulesAjv().getSchema(`${RULE_SCHEMA_ID}#/definitions/stepList`)!;
  return stepsValidator;
}

export function createAjv(): Ajv {
  // verbose: errors carry their schema, whose x-* annotations give codes and wording.
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    allowUnionTypes: true,
  });
  ajv.addVocabulary(['x-problem-code', 'x-label', 'x-message']);
  return ajv;
}

export interface SchemaIssue {
  path: YamlPath;
  target: 'key' | 'value';
  message: string;
  code: RuleProblemCode;
}

/** ajv errors of one value, as issues relative to that value; duplicates removed. */
export function schemaIssues(validate: ValidateFunction, value: unknown): SchemaIssue[] {
  if (validate(value)) return [];
  const seen = new Set<string>();
  const out: SchemaIssue[] = [];
  for (const err of validate.errors ?? []) {
    const issue = describe(err);
    if (!issue) continue;
    const key = `${issue.path.join('/')}|${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

export function issuesToProblems(issues: SchemaIssue[], at: Locator): RuleProblem[] {
  return issues.map((i) => ({
    ...at.pos(i.path, i.target),
    message: i.message,
    severity: 'error',
    code: i.code,
  }));
}

type Annotated = Record<string, unknown> & {
  'x-problem-code'?: string;
  'x-label'?: string;
  'x-message'?: string;
};

function describe(err: ErrorObject): SchemaIssue | undefined {
  const path = parsePointer(err.instancePath);
  const schema = (err.parentSchema ?? {}) as Annotated;
  const annotated = schema['x-problem-code'];
  const code: RuleProblemCode = isRuleProblemCode(annotated) ? annotated : 'schema';
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'if':
      return undefined; // the failing then/else branch reports the real problem
    case 'required':
      return {
        path,
        target: 'value',
        code: 'schema',
        message: `${label(path)} is missing required key "${p.missingProperty}"`,
      };
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const allowed = Object.keys((schema.properties as object) ?? {});
      if (code !== 'unknown-action')
        return {
          path: [...path, key],
          target: 'key',
          code,
          message: `unknown key "${key}"${hint(key, allowed)}`,
        };
      // assign-first, window, category and on-failure qualify an action; they are not actions.
      const actions = allowed.filter(
        (k) => !['assign-first', 'window', 'category', 'on-failure'].includes(k),
      );
      return {
        path: [...path, key],
        target: 'key',
        code,
        message: `unknown action "${key}"${hint(key, actions, 20)}`,
      };
    }
    case 'uniqueItems':
      return {
        path: [...path, Number(p.i)],
        target: 'value',
        code,
        message: `${label(path)} lists the same value twice`,
      };
    default:
      return { path, target: 'value', code, message: valueMessage(err, schema, label(path)) };
  }
}

/** What is wrong with a value, in words: the schema's x-message when it has one. */
function valueMessage(err: ErrorObject, schema: Annotated, subject: string): string {
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map((v) => (v === null ? 'null' : String(v)));
      const value = typeof err.data === 'string' ? err.data : JSON.stringify(err.data);
      const what = schema['x-label'];
      if (!what)
        return `${subject} must be one of ${allowed.join(', ')}, not "${value}"${hint(value, allowed, 0)}`;
      const extra = schema['x-message']
        ? `${hint(value, allowed, 0)}: ${schema['x-message']}`
        : hint(value, allowed, 20);
      return `unknown ${what} "${value}"${extra}`;
    }
    case 'type':
      return schema['x-message']
        ? `${subject} ${schema['x-message']}`
        : `${subject} must be ${article(String(p.type))}, not ${typeName(err.data)}`;
    case 'pattern':
      return `${subject} ${schema['x-message'] ?? `must match ${String(p.pattern)}`} (got ${JSON.stringify(err.data)})`;
    case 'minItems':
      return `${subject} must list at least ${p.limit} item(s)`;
    case 'minLength':
    case 'minProperties':
      return `${subject} must not be empty`;
    default:
      return `${subject} ${err.message ?? 'is invalid'}`;
  }
}

function parsePointer(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** `do[1].add-tag`, or `rule` for the rule itself. */
export function label(path: YamlPath): string {
  if (path.length === 0) return 'rule';
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function article(type: string): string {
  const words = type
    .split(',')
    .map((t) =>
      t === 'null'
        ? 'null'
        : t === 'array'
          ? 'a list'
          : t === 'object'
            ? 'a mapping'
            : /^[aeiou]/.test(t)
              ? `an ${t}`
              : `a ${t}`,
    );
  return words.join(' or ');
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  // Never the text itself: a document that is not a mapping may be any file a link pointed at
  // (issue 30: /proc/self/environ quoted into the log and /admin/rules/reload).
  if (typeof value === 'string') return `a string of ${value.length} character(s)`;
  return `a ${typeof value}`;
}
