// Named step lists: a YAML document `steps: <name>` with its `do` (and declared `params`), kept by
// convention in rules/steps/*.yaml. A rule's `- call: <name>` expands to those steps at load
// (parse-calls.ts), so the plan the engine runs holds plain steps. Here: collecting the lists,
// refusing duplicate names and call cycles between lists (each at its file:line:col).
import { undeclaredPlaceholders } from './parse-calls';
import { isPlainObject } from './problem-collector';
import type { RuleProblem } from './rule-types';
import { issuesToProblems, schemaIssues, stepListValidator } from './schema-problems';
import type { Locator, YamlPath } from './yaml-source';

export interface StepList {
  name: string;
  params: string[];
  /** Undefined when the list has problems of its own (reported there; its calls say nothing more). */
  steps: unknown[] | undefined;
  /** The step list's document: positions of its steps. */
  at: Locator;
}

export type StepLists = ReadonlyMap<string, StepList>;

/** At most this many `call:` levels, one inside another (a cycle is refused before). */
export const MAX_CALL_DEPTH = 8;

export function isStepListDoc(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && typeof value.steps === 'string' && value.rule === undefined;
}

/** The step lists among a set's documents, with the problems of each. */
export function collectStepLists(
  docs: { value: unknown; at: Locator }[],
  problems: RuleProblem[],
): StepLists {
  const lists = new Map<string, StepList>();
  for (const { value, at } of docs) {
    if (!isStepListDoc(value)) continue;
    const issues = schemaIssues(stepListValidator(), value);
    problems.push(...issuesToProblems(issues, at));
    const name = value.steps as string;
    if (issues.length > 0 || !Array.isArray(value.do)) {
      if (!lists.has(name)) lists.set(name, { name, params: [], steps: undefined, at });
      continue;
    }
    const first = lists.get(name);
    if (first) {
      const pos = first.at.pos(['steps']);
      problems.push({
        ...at.pos(['steps']),
        severity: 'error',
        code: 'duplicate-id',
        message: `step list "${name}" is already defined at ${pos.file}:${pos.line}`,
      });
      continue;
    }
    const params = Array.isArray(value.params) ? (value.params as string[]) : [];
    for (const u of undeclaredPlaceholders(value.do, params, ['do']))
      problems.push({
        ...at.pos(u.path),
        severity: 'error',
        code: 'invalid-call',
        message: `{{with.${u.name}}} is not a parameter of step list "${name}": declare it in params`,
      });
    lists.set(name, { name, params, steps: value.do, at });
  }
  problems.push(...callCycles(lists));
  return lists;
}

/** `call:` items anywhere inside raw steps (arms, repeats, on-failure included), with their paths. */
export function callsIn(raw: unknown, path: YamlPath = []): { name: string; path: YamlPath }[] {
  if (Array.isArray(raw)) return raw.flatMap((item, i) => callsIn(item, [...path, i]));
  if (!isPlainObject(raw)) return [];
  const here = typeof raw.call === 'string' ? [{ name: raw.call, path }] : [];
  return [
    ...here,
    ...Object.entries(raw).flatMap(([k, v]) => (k === 'with' ? [] : callsIn(v, [...path, k]))),
  ];
}

/** Each cycle of step lists calling one another, reported at the call that closes it. */
function callCycles(lists: StepLists): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const done = new Set<string>();
  const visit = (name: string, stack: string[]): void => {
    const list = lists.get(name);
    if (!list?.steps || done.has(name)) return;
    for (const call of callsIn(list.steps, ['do'])) {
      const at = stack.indexOf(call.name);
      if (call.name === name || at >= 0) {
        const cycle = [...stack.slice(Math.max(at, 0)), name, call.name];
        const where = cycle.slice(0, -1).map((n) => `${n} (${posOf(lists.get(n)!)})`);
        problems.push({
          ...list.at.pos([...call.path, 'call']),
          severity: 'error',
          code: 'call-cycle',
          message: `call cycle: ${[...where, call.name].join(' → ')}: a step list cannot call itself`,
        });
      } else visit(call.name, [...stack, name]);
    }
    done.add(name);
  };
  for (const name of lists.keys()) visit(name, []);
  return problems;
}

function posOf(list: StepList): string {
  const p = list.at.pos(['steps']);
  return `${p.file}:${p.line}`;
}
