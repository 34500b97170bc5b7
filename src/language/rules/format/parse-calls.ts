// `- call: <name>` (with `with:` values for the list's `params`): the named step list's steps, in
// place, expanded at load. The plan the engine runs holds plain steps (execution, at-most-once,
// durable waits unchanged); each expanded action keeps where its step is written (the list's
// file:line:col) for explain, graph and the run's trace, and problems found later (names, loops)
// point at the call in the rule.
import { isPlainObject } from './problem-collector';
import { MAX_CALL_DEPTH } from './step-lists';
import { walkFailure, walkSteps, type StepWalk } from './parse-steps';
import { hint } from './suggest';
import type { YamlPath } from './yaml-source';

type Raw = Record<string, unknown>;

const PLACEHOLDER = /\{\{\s*with\.([A-Za-z0-9_-]+)\s*\}\}/g;

export function isCallItem(item: unknown): item is Raw {
  return isPlainObject(item) && 'call' in item;
}

export function walkCall(
  item: Raw,
  at: YamlPath,
  walk: StepWalk,
  kinds: readonly string[] | undefined,
): void {
  const { ctx } = walk;
  const name = item.call;
  if (typeof name !== 'string') return; // the schema reported it
  const list = ctx.stepLists.get(name);
  if (!list)
    return ctx.error(
      [...at, 'call'],
      'unknown-step-list',
      `no step list named "${name}" (a file in rules/steps/ with \`steps: ${name}\`)${ctx.stepLists.size ? hint(name, [...ctx.stepLists.keys()]) : ''}`,
    );
  if (!list.steps) return; // its own problems are reported in its file
  // A cycle between lists is reported once, at the list's call that closes it (step-lists.ts).
  if (walk.calls.includes(name)) return;
  if (walk.calls.length >= MAX_CALL_DEPTH)
    return ctx.error(
      [...at, 'call'],
      'invalid-call',
      `calls nest more than ${MAX_CALL_DEPTH} deep: ${[...walk.calls, name].join(' → ')}`,
    );
  const given = isPlainObject(item.with) ? item.with : {};
  const before = ctx.errorCount();
  for (const p of list.params)
    if (!(p in given))
      ctx.error(at, 'invalid-call', `step list "${name}" needs \`with: { ${p}: ... }\``, 'key');
  for (const k of Object.keys(given))
    if (!list.params.includes(k))
      ctx.error(
        [...at, 'with', k],
        'invalid-call',
        `step list "${name}" has no parameter "${k}"${list.params.length ? ` (it takes ${list.params.join(', ')})` : ' (it takes none)'}`,
        'key',
      );
  if (ctx.errorCount() > before) return;
  const inner: StepWalk = {
    ...walk,
    ctx: ctx.within(list.at),
    callSite: walk.callSite ?? at,
    calls: [...walk.calls, name],
    repeats: [],
    repeat: undefined,
  };
  const from = walk.items.length;
  walkSteps(substitute(list.steps, given) as unknown[], ['do'], inner, kinds, 'arm');
  // `on-failure:` of the call, written in the rule: any of the list's actions failing takes it.
  if (item['on-failure'] !== undefined)
    walkFailure(item['on-failure'], at, walk, kinds, { from, to: walk.items.length });
}

/** `{{with.x}}` in the list's strings, replaced by the call's value (a lone placeholder keeps the value's type). */
export function substitute(raw: unknown, given: Raw): unknown {
  if (typeof raw === 'string') {
    const whole = /^\{\{\s*with\.([A-Za-z0-9_-]+)\s*\}\}$/.exec(raw);
    if (whole && whole[1] in given) return given[whole[1]];
    return raw.replace(PLACEHOLDER, (m, k: string) => (k in given ? String(given[k]) : m));
  }
  if (Array.isArray(raw)) return raw.map((v) => substitute(v, given));
  if (isPlainObject(raw))
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, substitute(v, given)]));
  return raw;
}

/** Placeholders a step list uses that its `params` do not declare, with their paths. */
export function undeclaredPlaceholders(
  raw: unknown,
  params: readonly string[],
  path: YamlPath,
): { name: string; path: YamlPath }[] {
  if (typeof raw === 'string')
    return [...raw.matchAll(PLACEHOLDER)]
      .filter((m) => !params.includes(m[1]))
      .map((m) => ({ name: m[1], path }));
  if (Array.isArray(raw)) return raw.flatMap((v, i) => undeclaredPlaceholders(v, params, [...path, i]));
  if (isPlainObject(raw))
    return Object.entries(raw).flatMap(([k, v]) => undeclaredPlaceholders(v, params, [...path, k]));
  return [];
}
