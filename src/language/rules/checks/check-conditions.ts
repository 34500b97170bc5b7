// Semantic checks of `if`: facts and paths that exist in the Contact / Message / event shapes
// and are available for the rule's event kinds, known operators, values that can match.
// Produces json-rules-engine conditions (`fact: contact.stageId` -> fact contact, path $.stageId).
import { parseOperatorName, OPERATOR_DECORATORS, OPERATOR_NAMES } from '../../matching/operators';
import { parseFactPath, toFactPath } from '../../matching/fact-path';
import { SINCE_UNITS, type SinceKey } from '../../matching/clock';
import {
  FACT_ROOTS,
  factUnavailableReason,
  FAILURE_OUTSIDE_ARM,
  lookupField,
  type FactRoot,
  type FieldType,
} from '../format/fact-shapes';
import { checkOperatorValue } from './check-operator-value';
import { checkChangeLeaf } from './check-change-leaf';
import { isChangeOperator } from '../../matching/change-operators';
import { calendarLeaf, isCalendarFact } from '../format/calendar-conditions';
import { isPlainObject, type ProblemCollector } from '../format/problem-collector';
import { hint } from '../format/suggest';
import type { YamlPath } from '../format/yaml-source';

type Node = Record<string, unknown>;
const BOOLEAN_KEYS = ['all', 'any', 'not'] as const;
const SINCE_KEYS = Object.keys(SINCE_UNITS) as SinceKey[];
const LEAF_KEYS = ['fact', 'operator', 'value', 'path', ...SINCE_KEYS] as const;

export interface ResolvedFact {
  root: FactRoot;
  segments: string[];
  type: FieldType;
  label: string;
}

/** json-rules-engine conditions, or undefined when `if` has problems (all reported on ctx). */
export function checkConditions(
  raw: unknown,
  ctx: ProblemCollector,
  kinds: readonly string[] | undefined,
  path: YamlPath = ['if'],
): Node | undefined {
  const before = ctx.errorCount();
  const node = checkNode(raw, path, ctx, kinds);
  if (!node || ctx.errorCount() > before) return undefined;
  // json-rules-engine wants all / any / not at the top: a single condition becomes all: [it].
  return BOOLEAN_KEYS.some((k) => k in node) ? node : { all: [node] };
}

function checkNode(
  raw: unknown,
  path: YamlPath,
  ctx: ProblemCollector,
  kinds: readonly string[] | undefined,
): Node | undefined {
  if (!isPlainObject(raw)) return undefined; // the schema reported it
  const bools = BOOLEAN_KEYS.filter((k) => k in raw);
  const leaf = LEAF_KEYS.filter((k) => k in raw);
  if (bools.length + (leaf.length > 0 ? 1 : 0) > 1) {
    const found = [...bools, ...leaf].join(', ');
    ctx.error(
      path,
      'schema',
      `a condition is either all, any, not or a fact/operator/value leaf; found ${found}`,
    );
    return undefined;
  }
  if (bools.length === 1) {
    const kind = bools[0];
    if (kind === 'not') {
      const child = checkNode(raw.not, [...path, 'not'], ctx, kinds);
      return child && { not: child };
    }
    if (!Array.isArray(raw[kind])) return undefined;
    const children = (raw[kind] as unknown[]).map((c, i) => checkNode(c, [...path, kind, i], ctx, kinds));
    return children.every(Boolean) ? { [kind]: children } : undefined;
  }
  return checkLeaf(raw, path, ctx, kinds);
}

function checkLeaf(
  raw: Node,
  path: YamlPath,
  ctx: ProblemCollector,
  kinds: readonly string[] | undefined,
): Node | undefined {
  const sinceKeys = SINCE_KEYS.filter((k) => k in raw);
  if (sinceKeys.length + ('fact' in raw ? 1 : 0) > 1) {
    const found = ['fact', ...SINCE_KEYS].filter((k) => k in raw).join(' and ');
    ctx.error(path, 'schema', `a condition reads one fact; found ${found}`);
    return undefined;
  }
  const factKey = (sinceKeys.length > 0 ? sinceKeys[0] : 'fact') as 'fact' | SinceKey;
  const missing = [factKey, 'operator', 'value'].filter((k) => !(k in raw));
  if (missing.length > 0) {
    ctx.error(path, 'schema', `condition is missing ${missing.map((k) => `"${k}"`).join(' and ')}`);
    return undefined;
  }
  const factName = raw[factKey];
  if (typeof factName !== 'string' || typeof raw.operator !== 'string') return undefined;
  if (factKey === 'fact' && isCalendarFact(factName)) return calendarLeaf(raw, path, ctx);
  const read = resolveFact(factName, raw.path, path, ctx, kinds, factKey);
  const fact = read && factKey !== 'fact' ? sinceFact(read, factKey, [...path, factKey], ctx) : read;
  const operator = checkOperatorName(raw.operator, [...path, 'operator'], ctx);
  if (fact && operator && isChangeOperator(operator.base))
    checkChangeLeaf(operator, raw.value, fact, path, ctx, kinds);
  else if (fact && operator) checkOperatorValue(operator, raw.value, fact, [...path, 'value'], ctx);
  if (!fact || !operator) return undefined;
  const out: Node = { fact: fact.root, operator: raw.operator, value: raw.value };
  if (fact.segments.length > 0) out.path = toFactPath(fact.segments);
  if (factKey !== 'fact') out.since = SINCE_UNITS[factKey];
  return out;
}

/** `daysSince: contact.createdAt` compares a whole number of days elapsed since that date. */
function sinceFact(
  date: ResolvedFact,
  key: SinceKey,
  path: YamlPath,
  ctx: ProblemCollector,
): ResolvedFact | undefined {
  const k = date.type.kind;
  if (k !== 'date' && k !== 'any') {
    ctx.error(path, 'invalid-value', `${key} counts from a date-time, and ${date.label} is not one`);
    return undefined;
  }
  return { ...date, type: { kind: 'number' }, label: `${key}(${date.label})` };
}

function checkOperatorName(
  name: string,
  path: YamlPath,
  ctx: ProblemCollector,
): { base: string; decorators: string[] } | undefined {
  const parsed = parseOperatorName(name);
  if ('unknownDecorator' in parsed) {
    const d = parsed.unknownDecorator;
    ctx.error(
      path,
      'unknown-operator',
      `unknown operator decorator "${d}" in "${name}"${hint(d, OPERATOR_DECORATORS)}`,
    );
    return undefined;
  }
  if ('unknownBase' in parsed) {
    ctx.error(
      path,
      'unknown-operator',
      `unknown operator "${parsed.unknownBase}"${hint(parsed.unknownBase, OPERATOR_NAMES, 20)}`,
    );
    return undefined;
  }
  return parsed;
}

function resolveFact(
  fact: string,
  explicitPath: unknown,
  path: YamlPath,
  ctx: ProblemCollector,
  kinds: readonly string[] | undefined,
  key: string = 'fact',
): ResolvedFact | undefined {
  const factPath = [...path, key];
  const [root, ...rest] = fact.split('.');
  if (!(FACT_ROOTS as readonly string[]).includes(root)) {
    ctx.error(
      factPath,
      'unknown-fact',
      `unknown fact "${root}"${hint(root, FACT_ROOTS)}; facts are event, contact, message and now`,
    );
    return undefined;
  }
  let segments = rest;
  if (typeof explicitPath === 'string') {
    const parsed = parseFactPath(explicitPath);
    if (rest.length > 0 || !parsed || parsed.some((s) => typeof s === 'number')) {
      const why =
        rest.length > 0
          ? 'write either fact: contact.stageId or fact: contact with path: $.stageId'
          : 'only $.name.name paths are supported';
      ctx.error([...path, 'path'], 'unknown-fact', `unsupported path "${explicitPath}": ${why}`);
      return undefined;
    }
    segments = parsed as string[];
  }
  const factRoot = root as FactRoot;
  if (factRoot === 'failure' && ctx.failureArms === 0) {
    ctx.error(factPath, 'unavailable-fact', FAILURE_OUTSIDE_ARM);
    return undefined;
  }
  const unavailable = (kinds ?? []).map((k) => factUnavailableReason(factRoot, k)).find(Boolean);
  if (unavailable) {
    ctx.error(factPath, 'unavailable-fact', `${unavailable}, and this rule listens to ${kinds!.join(', ')}`);
    return undefined;
  }
  let type: FieldType | undefined;
  for (const kind of kinds && kinds.length > 0 ? kinds : [undefined]) {
    const found = lookupField(factRoot, segments, kind);
    if ('error' in found) {
      ctx.error(
        factPath,
        'unknown-fact',
        `unknown fact path "${fact}": ${found.error}${hint(found.field, found.suggestions, 0)}`,
      );
      return undefined;
    }
    // Different kinds may give different shapes (event.data); then only "any" is safe to assume.
    type = type === undefined || sameType(type, found.type) ? found.type : { kind: 'any' };
  }
  return { root: factRoot, segments, type: type!, label: [root, ...segments].join('.') };
}

function sameType(a: FieldType, b: FieldType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
