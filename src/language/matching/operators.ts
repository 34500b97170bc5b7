// The operator vocabulary of conditions. The built-in operators and decorators are
// json-rules-engine's own Operator objects (so `equal`, `in`, `not:in`, `someFact:equal`
// behave exactly as json-rules-engine documents them); ours are registered on the same
// registry the way json-rules-engine users add operators.
import { Engine, Operator, OperatorDecorator } from 'json-rules-engine';
import { RE2JS } from 're2js';

export const BUILTIN_OPERATORS = [
  'equal',
  'notEqual',
  'in',
  'notIn',
  'lessThan',
  'lessThanInclusive',
  'greaterThan',
  'greaterThanInclusive',
] as const;

export const CUSTOM_OPERATOR_NAMES = [
  'contains',
  'doesNotContain',
  'startsWith',
  'endsWith',
  'matches',
  'hasTag',
  'hasAnyTag',
  'olderThan',
  'newerThan',
  'exists',
] as const;

/** Compare with the previous state (change-operators.ts); not Operator objects: they need two values. */
export const CHANGE_OPERATORS = ['changed', 'changedTo', 'changedFrom', 'added', 'removed'] as const;

export const OPERATOR_NAMES: readonly string[] = [
  ...BUILTIN_OPERATORS,
  ...CUSTOM_OPERATOR_NAMES,
  ...CHANGE_OPERATORS,
];

/** json-rules-engine's operator decorators, written `decorator:operator` (e.g. `not:matches`). */
export const OPERATOR_DECORATORS = [
  'someFact',
  'someValue',
  'everyFact',
  'everyValue',
  'swap',
  'not',
  'ignoreCase',
] as const;

/** Operators that compare text, where `ignoreCase:` means something. */
export const TEXT_OPERATORS: ReadonlySet<string> = new Set([
  'equal',
  'notEqual',
  'in',
  'notIn',
  'contains',
  'doesNotContain',
  'startsWith',
  'endsWith',
]);

/** Operators whose value is a duration measured back from the `now` fact. */
export const TIME_OPERATORS: ReadonlySet<string> = new Set(['olderThan', 'newerThan']);

export const MAX_PATTERN_LENGTH = 500;
/** RE2 program size above which a pattern is refused: matching stays linear, but memory and time grow with it. */
export const MAX_PROGRAM_SIZE = 5000;

const regexCache = new Map<string, RE2JS>();

/** Compiled once per pattern; patterns come from validated rule sets, so the cache stays small. */
export function compileRegex(pattern: string): RE2JS {
  let re = regexCache.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    regexCache.set(pattern, re);
  }
  return re;
}

/** Why a `matches` pattern is refused, or undefined when it is fine. */
export function regexProblem(
  pattern: string,
): { code: 'invalid-regex' | 'unsafe-regex'; message: string } | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return { code: 'unsafe-regex', message: `regex is longer than ${MAX_PATTERN_LENGTH} characters` };
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    const reason = (err as Error).message.replace(/^error parsing regexp: /, '');
    if (/invalid repeat count|expression too large/.test(reason)) {
      return {
        code: 'unsafe-regex',
        message: `regex ${JSON.stringify(pattern)} is too large for linear-time matching (${reason}); use smaller repetition counts`,
      };
    }
    if (/\\[1-9]|\(\?<?[=!]/.test(pattern)) {
      return {
        code: 'unsafe-regex',
        message: `regex ${JSON.stringify(pattern)} uses a backreference or lookaround, which needs backtracking and can take exponential time; only RE2 syntax is allowed`,
      };
    }
    return { code: 'invalid-regex', message: `invalid regex ${JSON.stringify(pattern)}: ${reason}` };
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) {
    return {
      code: 'unsafe-regex',
      message: `regex ${JSON.stringify(pattern)} is too complex (RE2 program size ${re.programSize()} > ${MAX_PROGRAM_SIZE}); simplify the repetitions`,
    };
  }
  return undefined;
}

export function toTime(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? undefined : t;
}

interface TagLike {
  id?: unknown;
  name?: unknown;
}

/** The tags of a `contact` fact or of `contact.tags`. */
export function tagsOf(value: unknown): TagLike[] {
  if (Array.isArray(value)) return value as TagLike[];
  const tags = value && typeof value === 'object' ? (value as { tags?: unknown }).tags : undefined;
  return Array.isArray(tags) ? (tags as TagLike[]) : [];
}

/** A tag is named by its uuid or by its name; names compare case-insensitively. */
function tagIs(tag: TagLike, wanted: unknown): boolean {
  if (typeof wanted !== 'string' || !tag) return false;
  return (
    tag.id === wanted || (typeof tag.name === 'string' && tag.name.toLowerCase() === wanted.toLowerCase())
  );
}

const isListOrText = (v: unknown) => Array.isArray(v) || typeof v === 'string';

/** json-rules-engine's `contains` on lists, extended to text: a substring test. */
function contains(fact: unknown, value: unknown): boolean {
  if (Array.isArray(fact)) return fact.indexOf(value) > -1;
  return typeof value === 'string' && (fact as string).includes(value);
}

const textTest = (test: (fact: string, value: string) => boolean) => (fact: unknown, value: unknown) =>
  typeof fact === 'string' && typeof value === 'string' && test(fact, value);

export const CUSTOM_OPERATORS: readonly Operator[] = [
  // Registered under the built-in names: lists keep json-rules-engine's semantics exactly.
  new Operator('contains', contains, isListOrText),
  new Operator('doesNotContain', (fact: unknown, value: unknown) => !contains(fact, value), isListOrText),
  new Operator(
    'startsWith',
    textTest((f, v) => f.startsWith(v)),
  ),
  new Operator(
    'endsWith',
    textTest((f, v) => f.endsWith(v)),
  ),
  new Operator('matches', (fact: unknown, pattern: unknown) =>
    typeof fact === 'string' && typeof pattern === 'string' ? compileRegex(pattern).test(fact) : false,
  ),
  new Operator('hasTag', (fact: unknown, tag: unknown) => tagsOf(fact).some((t) => tagIs(t, tag))),
  new Operator('hasAnyTag', (fact: unknown, wanted: unknown) =>
    Array.isArray(wanted) ? tagsOf(fact).some((t) => wanted.some((w) => tagIs(t, w))) : false,
  ),
  // The value is the cutoff (now - duration), resolved per evaluation from the `now` fact.
  new Operator('olderThan', (fact: unknown, cutoff: unknown) => compareTimes(fact, cutoff, (a, b) => a < b)),
  new Operator('newerThan', (fact: unknown, cutoff: unknown) => compareTimes(fact, cutoff, (a, b) => a > b)),
  new Operator(
    'exists',
    (fact: unknown, wanted: unknown) => (fact !== undefined && fact !== null) === (wanted === true),
  ),
];

function compareTimes(fact: unknown, cutoff: unknown, cmp: (a: number, b: number) => boolean): boolean {
  const a = toTime(fact);
  const b = toTime(cutoff);
  return a !== undefined && b !== undefined && cmp(a, b);
}

export interface OperatorLike {
  evaluate(factValue: unknown, jsonValue: unknown): boolean;
}

/** Lower-cases text, and the text inside lists, so any text operator compares case-insensitively. */
function lowerCase(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase();
  return Array.isArray(value) ? value.map(lowerCase) : value;
}

export const CUSTOM_DECORATORS: readonly OperatorDecorator[] = [
  new OperatorDecorator('ignoreCase', (fact: unknown, value: unknown, next) =>
    next(lowerCase(fact), lowerCase(value)),
  ),
];

/** One json-rules-engine Engine whose operator map (built-ins, decorators, ours) every evaluator shares. */
export function createEngineWithOperators(options: ConstructorParameters<typeof Engine>[1] = {}): Engine {
  const engine = new Engine([], { allowUndefinedFacts: true, ...options });
  for (const op of CUSTOM_OPERATORS) engine.addOperator(op);
  for (const decorator of CUSTOM_DECORATORS) engine.addOperatorDecorator(decorator);
  return engine;
}

const registry = createEngineWithOperators();

/**
 * The Operator object json-rules-engine would use for `name` (decorated names resolved and
 * cached by its OperatorMap), or null. `operators` is not in the published typings.
 */
export function lookupOperator(name: string): OperatorLike | null {
  return (registry as unknown as { operators: { get(n: string): OperatorLike | null } }).operators.get(name);
}

export type ParsedOperator =
  { base: string; decorators: string[] } | { unknownDecorator: string } | { unknownBase: string };

export function parseOperatorName(name: string): ParsedOperator {
  const parts = name.split(':');
  const base = parts.pop()!;
  for (const d of parts) {
    if (!(OPERATOR_DECORATORS as readonly string[]).includes(d)) return { unknownDecorator: d };
  }
  if (!OPERATOR_NAMES.includes(base)) return { unknownBase: base };
  return { base, decorators: parts };
}
