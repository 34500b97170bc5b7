// `- repeat: N` with its `do` and `exhausted`, and `- again` inside it: an ask-again flow ("ask
// again when the answer is not 1, 2 or 3, at most 3 times"). Unrolled at load: each `again`
// becomes the next repetition's steps, the last one's `again` the `exhausted` steps. The plan the
// engine runs is plain steps, so each repetition's question is its own action (its own idempotency
// key: sent at most once, across restarts) and a run's repetitions are counted by the actions it
// reached, durably. No loop exists to run away: the unrolled plan is finite by construction.
import { openBranch } from './parse-branches';
import { isPlainObject } from './problem-collector';
import { walkSteps, type StepWalk } from './parse-steps';
import type { YamlPath } from './yaml-source';

type Raw = Record<string, unknown>;

/** The largest `max` of a repeat (each `again` unrolls a copy of the steps). */
export const MAX_REPEAT = 5;
/** A rule whose repeats unroll to more actions than this is refused (several `again`s multiply). */
export const MAX_UNROLLED_ACTIONS = 200;

export interface RepeatFrame {
  steps: unknown[];
  path: YamlPath;
  exhausted: unknown[];
  exhaustedPath: YamlPath;
  max: number;
  /** The repetition being walked (1 = the first time). */
  n: number;
}

export function isRepeatItem(item: unknown): item is Raw {
  return isPlainObject(item) && 'repeat' in item;
}

export function isAgainItem(item: unknown): boolean {
  return item === 'again';
}

export function walkRepeat(
  item: Raw,
  at: YamlPath,
  walk: StepWalk,
  kinds: readonly string[] | undefined,
): void {
  const { ctx } = walk;
  const max = item.repeat;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_REPEAT)
    return ctx.error(
      [...at, 'repeat'],
      'invalid-repeat',
      `repeat takes how many times the steps may run in all, a whole number from 1 to ${MAX_REPEAT}, not ${JSON.stringify(max)}`,
    );
  const steps = Array.isArray(item.do) ? item.do : [];
  const exhausted = Array.isArray(item.exhausted) ? item.exhausted : [];
  if (steps.length === 0 || exhausted.length === 0)
    return ctx.error(
      at,
      'invalid-repeat',
      `repeat needs its \`do\` steps and \`exhausted\` (what happens when the ${max} times are used up)`,
      'key',
    );
  const tails = againNotLast(steps, [...at, 'do']);
  for (const p of tails)
    ctx.error(
      p,
      'invalid-repeat',
      '`again` starts the steps over: it must be the last step of its arm, and its branch the last step of the repeat',
    );
  if (tails.length > 0) return;
  if (againsIn(steps) === 0)
    return ctx.error(
      at,
      'invalid-repeat',
      'repeat without `again` runs once: say where it starts over',
      'key',
    );
  const frame: RepeatFrame = {
    steps,
    path: [...at, 'do'],
    exhausted,
    exhaustedPath: [...at, 'exhausted'],
    max,
    n: 1,
  };
  const start = walk.items.length;
  walkRepetition(frame, walk, kinds);
  if (walk.items.length - start > MAX_UNROLLED_ACTIONS)
    ctx.error(
      [...at, 'repeat'],
      'invalid-repeat',
      `this repeat unrolls to ${walk.items.length - start} actions (more than ${MAX_UNROLLED_ACTIONS}): lower max or use fewer \`again\`s`,
    );
}

/** `- again`: the next repetition of the innermost repeat, or its `exhausted` steps after the last. */
export function walkAgain(at: YamlPath, walk: StepWalk, kinds: readonly string[] | undefined): void {
  const frame = walk.repeats.at(-1);
  if (!frame)
    return walk.ctx.error(at, 'invalid-repeat', '`again` starts a repeat over, and it is not inside one');
  // Past the unroll cap: stop copying (the cap's problem is reported by walkRepeat).
  if (walk.items.length > MAX_UNROLLED_ACTIONS * 2) return;
  const next = frame.n < frame.max;
  const label = next ? `repeat:${frame.n + 1}` : 'exhausted';
  const step = openBranch('repeat', at, walk);
  const from = walk.items.length;
  if (next) walkRepetition({ ...frame, n: frame.n + 1 }, walk, kinds);
  else {
    // The exhausted steps belong to the enclosing flow: an `again` there is the outer repeat's.
    const [stack, repeat] = [walk.repeats, walk.repeat];
    walk.repeats = stack.slice(0, -1);
    walk.repeat = walk.repeats.at(-1) && { n: walk.repeats.at(-1)!.n, max: walk.repeats.at(-1)!.max };
    walkSteps(frame.exhausted, frame.exhaustedPath, walk, kinds, 'arm');
    [walk.repeats, walk.repeat] = [stack, repeat];
  }
  step.arms.push({ label, from, to: walk.items.length });
  step.end = walk.items.length;
}

function walkRepetition(frame: RepeatFrame, walk: StepWalk, kinds: readonly string[] | undefined): void {
  const [stack, repeat] = [walk.repeats, walk.repeat];
  // A later repetition takes the place of the one whose `again` it is.
  walk.repeats = frame.n > 1 ? [...stack.slice(0, -1), frame] : [...stack, frame];
  walk.repeat = { n: frame.n, max: frame.max };
  walkSteps(frame.steps, frame.path, walk, kinds, 'arm');
  [walk.repeats, walk.repeat] = [stack, repeat];
}

/** How many `again`s of this repeat are in these steps (not those of a repeat inside, nor of a call). */
function againsIn(raw: unknown): number {
  if (isAgainItem(raw)) return 1;
  if (Array.isArray(raw)) return raw.reduce((n: number, item) => n + againsIn(item), 0);
  if (!isPlainObject(raw) || isRepeatItem(raw)) return 0;
  return Object.values(raw).reduce((n: number, v) => n + againsIn(v), 0);
}

/** Paths of steps holding an `again` that are not the last of their list (anything after would never run). */
function againNotLast(list: unknown[], path: YamlPath): YamlPath[] {
  const out: YamlPath[] = [];
  list.forEach((item, i) => {
    if (againsIn(item) === 0) return;
    if (i < list.length - 1) out.push([...path, i]);
    if (isPlainObject(item) && !isRepeatItem(item)) out.push(...nestedLists(item, [...path, i]));
  });
  return out;
}

/** The step lists inside one step (arms of if / switch / split, wait outcomes, on-failure). */
function nestedLists(raw: Raw, path: YamlPath): YamlPath[] {
  const out: YamlPath[] = [];
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v) && v.some((x) => againsIn(x) > 0) && isStepList(k))
      out.push(...againNotLast(v, [...path, k]));
    else if (isPlainObject(v)) out.push(...nestedLists(v, [...path, k]));
  }
  return out;
}

function isStepList(key: string): boolean {
  return ['then', 'else', 'do', 'default', 'on-event', 'on-timeout', 'on-failure'].includes(key);
}
