// json-rules-engine's own Engine for a rule set: the reference the compiled evaluator
// (compiled-rule-set.ts) is tested against (compiled-rule-set.conformance.spec.ts) and the
// baseline of `npm run bench:rules`. Our facts that json-rules-engine operators cannot see
// (time cutoffs, calendar parts, units since a date, change operators) become computed facts.
import type { Engine, TopLevelCondition } from 'json-rules-engine';
import { parseDuration } from '../rules/format/durations';
import type { NameResolver, PreviousState, RuleDefinition } from '../rules/format/rule-types';
import {
  changeHolds,
  isChangeOperator,
  NAMED_ID_FIELDS,
  TAG_CHANGE_OPERATORS,
  usesChangeOperator,
  type ChangeLeaf,
} from './change-operators';
import { clockParts, DEFAULT_TIMEZONE, unitsSince, type SinceUnit } from './clock';
import { compilePath } from './fact-path';
import { createEngineWithOperators, TIME_OPERATORS, toTime } from './operators';

/**
 * Facts: `event`, `contact`, `message`, `now` given to run(); computed from them, as
 * json-rules-engine users write parameterised facts: `cutoff` (now - ms), `clock` (calendar
 * parts of now in a time zone) and `since` (units elapsed since a date of another fact).
 */
export function buildReferenceEngine(rules: readonly RuleDefinition[]): Engine {
  const engine = createEngineWithOperators();
  const nowOf = async (almanac: { factValue(name: string): Promise<unknown> }) =>
    new Date(toTime(await almanac.factValue('now')) ?? Date.now());
  engine.addFact(
    'cutoff',
    async (params, almanac) => new Date((await nowOf(almanac)).getTime() - Number(params.ms)),
  );
  engine.addFact('clock', async (params, almanac) =>
    clockParts(await nowOf(almanac), String(params.timezone)),
  );
  // Change operators need two values: the leaf becomes the `change` fact (true when the change
  // holds); `previous` is a runtime fact (PreviousState), names a runtime `names` fact { resolve }.
  engine.addFact('change', async (params, almanac) => {
    const previous = (await almanac.factValue('previous').catch(() => undefined)) as
      PreviousState | undefined;
    // null equals neither true nor false: a change leaf, negated or not, is false without a previous state.
    if (previous?.contact === undefined) return null;
    const read = compilePath(params.path as string | undefined);
    const names = (await almanac.factValue('names').catch(() => undefined)) as
      { resolve?: NameResolver } | undefined;
    const leaf = params.leaf as ChangeLeaf;
    return changeHolds(
      leaf,
      read(previous.contact),
      read(await almanac.factValue('contact')),
      names?.resolve,
    );
  });
  engine.addFact('hasPrevious', async (_params, almanac) => {
    const previous = (await almanac.factValue('previous').catch(() => undefined)) as
      PreviousState | undefined;
    return previous?.contact !== undefined;
  });
  engine.addFact('since', async (params, almanac) => {
    const date = compilePath(params.path as string | undefined)(await almanac.factValue(String(params.of)));
    return unitsSince(date, await nowOf(almanac), params.unit as SinceUnit, String(params.timezone));
  });
  for (const rule of rules) {
    const conditions = toEngineConditions(rule.conditions ?? { all: [] }, rule.timezone ?? DEFAULT_TIMEZONE);
    engine.addRule({
      name: rule.id,
      priority: 1,
      conditions: withPreviousRequired(rule, conditions) as unknown as TopLevelCondition,
      event: { type: 'rule-matched', params: { ruleId: rule.id } },
    });
  }
  return engine;
}

/**
 * json-rules-engine operators see only (fact, value): a time operator's duration becomes the
 * cutoff fact, `now.<part>` the clock fact, and a `since` leaf the since fact.
 */
function toEngineConditions(node: Record<string, unknown>, timezone: string): Record<string, unknown> {
  for (const kind of ['all', 'any'] as const) {
    if (Array.isArray(node[kind]))
      return {
        [kind]: (node[kind] as Record<string, unknown>[]).map((c) => toEngineConditions(c, timezone)),
      };
  }
  if (node.not && typeof node.not === 'object')
    return { not: toEngineConditions(node.not as Record<string, unknown>, timezone) };
  const decorators = String(node.operator).split(':');
  const base = decorators.pop()!;
  if (isChangeOperator(base)) {
    const field = typeof node.path === 'string' ? node.path.replace(/^\$\./, '') : '';
    const leaf: ChangeLeaf = {
      operator: base,
      value: node.value,
      ...(NAMED_ID_FIELDS[field] ? { idKind: NAMED_ID_FIELDS[field] } : {}),
      tags: TAG_CHANGE_OPERATORS.has(base) || field === 'tags',
    };
    const negated = decorators.filter((d) => d === 'not').length % 2 === 1;
    return { fact: 'change', params: { path: node.path, leaf }, operator: 'equal', value: !negated };
  }
  if (TIME_OPERATORS.has(base))
    return { ...node, value: { fact: 'cutoff', params: { ms: parseDuration(node.value) } } };
  if (node.fact === 'now' && typeof node.path === 'string')
    return { ...node, fact: 'clock', params: { timezone } };
  if (typeof node.since === 'string') {
    const { since, path, fact, ...rest } = node;
    return { ...rest, fact: 'since', params: { of: fact, path, unit: since, timezone } };
  }
  return { ...node };
}

/**
 * A rule with a change operator does not match without a previous state: a `hasPrevious` leaf
 * appended to its top-level `all` (so the other leaves keep their place), or an `all` around it.
 */
function withPreviousRequired(
  rule: RuleDefinition,
  conditions: Record<string, unknown>,
): Record<string, unknown> {
  if (!usesChangeOperator(rule.conditions)) return conditions;
  const required = { fact: 'hasPrevious', operator: 'equal', value: true };
  return Array.isArray(conditions.all)
    ? { all: [...(conditions.all as unknown[]), required] }
    : { all: [conditions, required] };
}
