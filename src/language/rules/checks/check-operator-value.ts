// Does a condition's value make sense for its operator and for the type of the fact it reads?
// Each refusal here is a condition that would silently never (or always) match.
import { isUuid } from '@crm-rules/crm-contract';
import { regexProblem, TEXT_OPERATORS, TIME_OPERATORS } from '../../matching/operators';
import type { ResolvedFact } from './check-conditions';
import { DURATION_HINT, parseDuration } from '../format/durations';
import { describeType, type FieldType } from '../format/fact-shapes';
import type { ProblemCollector } from '../format/problem-collector';
import { hint } from '../format/suggest';
import type { YamlPath } from '../format/yaml-source';

type Check = (
  value: unknown,
  fact: ResolvedFact,
  path: YamlPath,
  ctx: ProblemCollector,
  operator: string,
) => void;

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const show = (v: unknown) => JSON.stringify(v);

function invalid(ctx: ProblemCollector, path: YamlPath, message: string): void {
  ctx.error(path, 'invalid-value', message);
}

/** A scalar compared with a field: booleans with booleans, ids with uuids, enums with their values. */
function checkComparable(value: unknown, fact: ResolvedFact, path: YamlPath, ctx: ProblemCollector): void {
  const t: FieldType = fact.type;
  if (!isScalar(value))
    return invalid(
      ctx,
      path,
      `${fact.label} is compared with one value, not ${Array.isArray(value) ? 'a list (use in)' : 'a mapping'}`,
    );
  const nullable = 'nullable' in t && t.nullable === true;
  if (value === null) {
    if (t.kind !== 'any' && !nullable) invalid(ctx, path, `${fact.label} is never null`);
    return;
  }
  switch (t.kind) {
    case 'boolean':
      if (typeof value !== 'boolean')
        invalid(ctx, path, `${fact.label} is true or false, not ${show(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number') invalid(ctx, path, `${fact.label} is a number, not ${show(value)}`);
      else checkRange(value, t, fact.label, path, ctx);
      return;
    case 'enum':
      if (typeof value !== 'string' || !t.values.includes(value))
        invalid(
          ctx,
          path,
          `${show(value)} is not a possible value of ${fact.label}${hint(String(value), t.values, 20)}`,
        );
      return;
    case 'uuid':
      if (!isUuid(value))
        invalid(
          ctx,
          path,
          `${fact.label} holds a uuid, and conditions compare ids, not names: ${show(value)} never matches`,
        );
      return;
    case 'string':
    case 'date':
      if (typeof value !== 'string') invalid(ctx, path, `${fact.label} is text, not ${show(value)}`);
      return;
    case 'tags':
      return invalid(ctx, path, `${fact.label} is a list of tags: use hasTag or hasAnyTag`);
    case 'object':
      return invalid(
        ctx,
        path,
        `${fact.label} is a whole object: compare one of its fields, e.g. ${fact.label}.${Object.keys(t.fields)[0]}`,
      );
    default:
      return;
  }
}

/** now.hour is 0-23: a value outside the range never matches. */
function checkRange(
  value: number,
  t: Extract<FieldType, { kind: 'number' }>,
  label: string,
  path: YamlPath,
  ctx: ProblemCollector,
): void {
  if ((t.min !== undefined && value < t.min) || (t.max !== undefined && value > t.max))
    invalid(ctx, path, `${label} goes from ${t.min} to ${t.max}, so ${value} never matches`);
}

const list: Check = (value, fact, path, ctx, op) => {
  if (!Array.isArray(value)) return invalid(ctx, path, `${op} takes a list of values, e.g. [a, b]`);
  value.forEach((v, i) => checkComparable(v, fact, [...path, i], ctx));
};

function checkText(value: unknown, path: YamlPath, ctx: ProblemCollector, op: string): void {
  if (typeof value !== 'string' || value === '')
    invalid(ctx, path, `${op} on text takes a non-empty text, not ${show(value)}`);
}

/** On text, a substring; on a list (custom fields), an element. */
const contains: Check = (value, fact, path, ctx, op) => {
  const k = fact.type.kind;
  if (k === 'tags')
    return invalid(ctx, path, `${op} on ${fact.label} compares whole tags: use hasTag or hasAnyTag`);
  if (k === 'string') return checkText(value, path, ctx, op);
  if (k !== 'any')
    return invalid(
      ctx,
      path,
      `${op} works on text and lists, and ${fact.label} is a ${describeType(fact.type)}`,
    );
  if (!isScalar(value)) invalid(ctx, path, `${op} takes one value`);
};

const affix: Check = (value, fact, path, ctx, op) => {
  const k = fact.type.kind;
  if (k !== 'string' && k !== 'any')
    return invalid(ctx, path, `${op} reads text and ${fact.label} is a ${describeType(fact.type)}`);
  checkText(value, path, ctx, op);
};

const numeric: Check = (value, fact, path, ctx, op) => {
  const k = fact.type.kind;
  if (k === 'date')
    return invalid(ctx, path, `${fact.label} is a date-time: use olderThan or newerThan instead of ${op}`);
  if (k !== 'number' && k !== 'any')
    return invalid(ctx, path, `${op} compares numbers and ${fact.label} is not a number`);
  if (typeof value !== 'number') invalid(ctx, path, `${op} takes a number, not ${show(value)}`);
};

function checkPattern(value: unknown, path: YamlPath, ctx: ProblemCollector): void {
  if (typeof value !== 'string')
    return invalid(ctx, path, `matches takes a regex string, not ${show(value)}`);
  const problem = regexProblem(value);
  if (problem) ctx.error(path, problem.code, problem.message);
}

const matches: Check = (value, fact, path, ctx) => {
  const k = fact.type.kind;
  if (['boolean', 'number', 'tags', 'object'].includes(k))
    invalid(ctx, path, `matches reads text and ${fact.label} is not text`);
  checkPattern(value, path, ctx);
};

function checkTagFact(fact: ResolvedFact, path: YamlPath, ctx: ProblemCollector, op: string): void {
  const whole = fact.root === 'contact' && fact.segments.length === 0;
  if (!whole && fact.type.kind !== 'tags' && fact.type.kind !== 'any')
    invalid(ctx, path, `${op} reads the contact's tags: use fact contact or contact.tags, not ${fact.label}`);
}

const hasTag: Check = (value, fact, path, ctx, op) => {
  checkTagFact(fact, path, ctx, op);
  if (typeof value !== 'string' || value.trim() === '') invalid(ctx, path, `${op} takes a tag name or uuid`);
};

const hasAnyTag: Check = (value, fact, path, ctx, op) => {
  checkTagFact(fact, path, ctx, op);
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.some((v) => typeof v !== 'string' || v.trim() === '')
  )
    invalid(ctx, path, `${op} takes a list of tag names or uuids`);
};

const relativeTime: Check = (value, fact, path, ctx, op) => {
  const k = fact.type.kind;
  if (k !== 'date' && k !== 'string' && k !== 'any')
    invalid(ctx, path, `${op} compares date-times and ${fact.label} is not one`);
  if (parseDuration(value) === undefined)
    invalid(ctx, path, `${op} takes ${DURATION_HINT}, not ${show(value)}`);
};

const exists: Check = (value, _fact, path, ctx) => {
  if (typeof value !== 'boolean') invalid(ctx, path, `exists takes true or false`);
};

const CHECKS: Record<string, Check> = {
  equal: checkComparable,
  notEqual: checkComparable,
  in: list,
  notIn: list,
  contains,
  doesNotContain: contains,
  startsWith: affix,
  endsWith: affix,
  lessThan: numeric,
  lessThanInclusive: numeric,
  greaterThan: numeric,
  greaterThanInclusive: numeric,
  matches,
  hasTag,
  hasAnyTag,
  olderThan: relativeTime,
  newerThan: relativeTime,
  exists,
};

export function checkOperatorValue(
  operator: { base: string; decorators: string[] },
  value: unknown,
  fact: ResolvedFact,
  path: YamlPath,
  ctx: ProblemCollector,
): void {
  const { base, decorators } = operator;
  if (decorators.includes('ignoreCase') && !TEXT_OPERATORS.has(base))
    return invalid(
      ctx,
      path,
      `ignoreCase: applies to text comparisons (${[...TEXT_OPERATORS].join(', ')}), not ${base}${base === 'matches' ? ': write (?i) in the regex' : ''}`,
    );
  // `not:` and `ignoreCase:` keep the value's meaning; other decorators reshape fact or value,
  // so only the checks that hold whatever the shape remain: regexes safe, durations parse.
  if (decorators.every((d) => d === 'not' || d === 'ignoreCase'))
    return CHECKS[base](value, fact, path, ctx, base);
  const values =
    Array.isArray(value) && decorators.some((d) => d === 'someValue' || d === 'everyValue') ? value : [value];
  values.forEach((v, i) => {
    const at = values === value ? [...path, i] : path;
    if (base === 'matches') checkPattern(v, at, ctx);
    if (TIME_OPERATORS.has(base) && parseDuration(v) === undefined)
      invalid(ctx, at, `${base} takes ${DURATION_HINT}, not ${show(v)}`);
  });
}
