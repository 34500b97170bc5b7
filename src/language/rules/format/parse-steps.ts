// `do:` as written: CRM actions (parsed by parse-actions.ts, the catalogue's part) and the
// control steps around them: `- wait: 2h` (with unless / until, and on-event / on-timeout), a
// `window:` on an action, and branches (if / switch / split, parse-branches.ts). Actions are
// numbered depth-first, branches included (action results are per action index); waits say which
// action they come before, branches which action range each arm covers (docs/ARCHITECTURE.md).
import { withActionCategory } from './message-categories';
import { checkConditions } from '../checks/check-conditions';
import { checkWindow } from '../checks/check-timing';
import { DURATION_HINT, parseDuration } from './durations';
import { parseAction } from './parse-actions';
import { isBranchItem, openBranch, parseBranch, walkArm } from './parse-branches';
import { isCallItem, walkCall } from './parse-calls';
import { isAgainItem, isRepeatItem, walkAgain, walkRepeat, type RepeatFrame } from './parse-repeat';
import { isPlainObject, type ProblemCollector } from './problem-collector';
import type { ActionOrigin, BranchStep, RuleAction, RuleDefinition, WaitStep, WaitUntil } from './rule-types';
import type { YamlPath } from './yaml-source';

type Raw = Record<string, unknown>;

export interface ParsedSteps {
  /** One entry per action item (undefined where it has a problem), as parseActionItems gives. */
  items: (RuleAction | undefined)[];
  /** Per action, the event kinds its facts come from (StepWalk.itemKinds). */
  itemKinds: (readonly string[] | undefined)[];
  /** Per action, whether it lies inside an `on-failure:` arm (its templates may read failure.*). */
  itemInFailure: boolean[];
  timing: Pick<RuleDefinition, 'waits' | 'actionWindows' | 'actionSteps' | 'actionPaths' | 'branches'>;
  /** Per action, the call / repetition it came from; undefined when every action is written in the rule. */
  origins?: (ActionOrigin | undefined)[];
}

/** What the walk over `do` and its branches collects. */
export interface StepWalk {
  ctx: ProblemCollector;
  timezone: string | undefined;
  items: (RuleAction | undefined)[];
  /** The event kinds each action's facts come from: an on-event arm's are its wait's `until` events. */
  itemKinds: (readonly string[] | undefined)[];
  itemInFailure: boolean[];
  paths: YamlPath[];
  waits: WaitStep[];
  branches: BranchStep[];
  actionWindows: { action: number; window: NonNullable<RuleDefinition['window']> }[];
  /** Per action, where it came from (parse-calls.ts, parse-repeat.ts). */
  origins: (ActionOrigin | undefined)[];
  /** Inside a `call:`: the call in the rule (positions of later checks), and the lists called, outermost first. */
  callSite?: YamlPath;
  calls: string[];
  /** The repeats being unrolled, innermost last, and the repetition the steps walked belong to. */
  repeats: RepeatFrame[];
  repeat?: { n: number; max: number };
}

export function isWaitItem(item: unknown): item is Raw {
  return isPlainObject(item) && 'wait' in item;
}

/** Where action `i` of a rule is written (for file:line:col), relative to the rule. */
export function actionPath(
  def: Pick<RuleDefinition, 'actionSteps' | 'actionPaths'>,
  i: number,
): (string | number)[] {
  return def.actionPaths?.[i] ?? ['do', def.actionSteps?.[i] ?? i];
}

export function parseSteps(
  raw: unknown,
  path: YamlPath,
  ctx: ProblemCollector,
  rule: { kinds: readonly string[] | undefined; timezone: string | undefined },
): ParsedSteps | undefined {
  if (!Array.isArray(raw)) return undefined;
  const walk: StepWalk = {
    ctx,
    timezone: rule.timezone,
    items: [],
    itemKinds: [],
    itemInFailure: [],
    paths: [],
    waits: [],
    branches: [],
    actionWindows: [],
    origins: [],
    calls: [],
    repeats: [],
  };
  walkSteps(raw, path, walk, rule.kinds, 'do');
  const expanded = walk.origins.some(Boolean);
  const { items, waits, branches, actionWindows } = walk;
  // Without branches every action is a top-level item: its index in `do` is all a position needs.
  const actionSteps = walk.paths.map((p) => p[p.length - 1] as number);
  const positions =
    branches.length > 0 || expanded
      ? { actionPaths: walk.paths.map((p) => [...p]), branches }
      : waits.length > 0
        ? { actionSteps }
        : {};
  return {
    items,
    itemKinds: walk.itemKinds,
    itemInFailure: walk.itemInFailure,
    timing: {
      ...(waits.length > 0 ? { waits } : {}),
      ...positions,
      ...(actionWindows.length > 0 ? { actionWindows } : {}),
    },
    ...(expanded ? { origins: walk.origins } : {}),
  };
}

/** One list of steps: `do` itself or an arm of a branch. */
export function walkSteps(
  list: unknown[],
  path: YamlPath,
  walk: StepWalk,
  kinds: readonly string[] | undefined,
  scope: 'do' | 'arm',
): void {
  const { ctx } = walk;
  list.forEach((item, i) => {
    const at = [...path, i];
    if (isWaitItem(item)) {
      const index = walk.waits.length;
      // A wait's unless / until read the facts of its wake-up and of later events, never failure.*.
      const arms = ctx.failureArms;
      ctx.failureArms = 0;
      const wait = parseWait(item, at, ctx, kinds);
      ctx.failureArms = arms;
      const outcomes = 'on-event' in item || 'on-timeout' in item;
      walk.waits.push({ beforeAction: walk.items.length, ms: 0, ...wait });
      if (outcomes) return walkOutcomes(item, at, walk, kinds, index, wait?.until?.events);
      if (i === list.length - 1)
        ctx.error(
          at,
          'invalid-wait',
          scope === 'do'
            ? 'a wait at the end of do waits for nothing: put it before the actions it delays'
            : 'a wait at the end of a branch waits for nothing: put it before the actions it delays',
          'key',
        );
      return;
    }
    if (isBranchItem(item)) return parseBranch(item, at, walk, kinds);
    if (isCallItem(item)) return walkCall(item, at, walk, kinds);
    if (isRepeatItem(item)) return walkRepeat(item, at, walk, kinds);
    if (isAgainItem(item)) return walkAgain(at, walk, kinds);
    const {
      window,
      category,
      'on-failure': onFailure,
      ...action
    } = isPlainObject(item) ? item : { window: undefined, category: undefined, 'on-failure': undefined };
    if (window !== undefined) {
      const w = checkWindow(window, [...at, 'window'], walk.timezone, ctx);
      if (w) walk.actionWindows.push({ action: walk.items.length, window: w });
    }
    walk.paths.push(walk.callSite ?? at);
    walk.origins.push(originOf(walk, at));
    walk.itemKinds.push(kinds);
    walk.itemInFailure.push(walk.ctx.failureArms > 0);
    const parsed = parseAction(isPlainObject(item) ? action : item, at, ctx);
    walk.items.push(withActionCategory(parsed, category, at, ctx));
    if (onFailure !== undefined) walkFailure(onFailure, at, walk, kinds);
  });
}

function originOf(walk: StepWalk, at: YamlPath): ActionOrigin | undefined {
  const name = walk.calls.at(-1);
  if (!name && !walk.repeat) return undefined;
  return {
    ...(name ? { call: { name, at: walk.ctx.at.pos(at) } } : {}),
    ...(walk.repeat ? { repeat: walk.repeat } : {}),
  };
}

/**
 * `on-failure:` of the action (or, with `covers`, the called list) just walked: a branch right
 * after it, taken by the runner when the action (any action of the list) ends failed or dead (never uncertain: a message that may have gone out is not followed
 * by its fallback); otherwise its empty `succeeded` arm, and the run goes on.
 */
export function walkFailure(
  raw: unknown,
  at: YamlPath,
  walk: StepWalk,
  kinds: readonly string[] | undefined,
  covers?: BranchStep['covers'],
): void {
  const step = openBranch('failure', at, walk);
  if (covers) step.covers = covers;
  walk.ctx.failureArms++; // failure.* is readable inside the arm, nowhere else
  step.arms.push(walkArm(raw, [...at, 'on-failure'], 'on-failure', walk, kinds, undefined, true));
  walk.ctx.failureArms--;
  step.arms.push({ label: 'succeeded', from: walk.items.length, to: walk.items.length });
  step.end = walk.items.length;
}

/** `on-event` / `on-timeout` of wait `wait`: a branch on how it ended, right after it. */
function walkOutcomes(
  item: Raw,
  at: YamlPath,
  walk: StepWalk,
  kinds: readonly string[] | undefined,
  wait: number,
  untilEvents: string[] | undefined,
): void {
  if (item.until === undefined)
    walk.ctx.error(
      at,
      'invalid-wait',
      'on-event / on-timeout need an `until`: without one the wait can only time out',
      'key',
    );
  const step: BranchStep = {
    kind: 'outcome',
    at: walk.items.length,
    end: 0,
    afterWaits: wait + 1,
    wait,
    source: [...at],
    arms: [],
  };
  walk.branches.push(step);
  step.arms.push(walkArm(item['on-event'], [...at, 'on-event'], 'on-event', walk, untilEvents ?? kinds));
  step.arms.push(walkArm(item['on-timeout'], [...at, 'on-timeout'], 'on-timeout', walk, kinds));
  walk.waits[wait].outcomes = true;
  step.end = walk.items.length;
}

function parseWait(
  item: Raw,
  path: YamlPath,
  ctx: ProblemCollector,
  kinds: readonly string[] | undefined,
): Omit<WaitStep, 'beforeAction'> | undefined {
  const before = ctx.errorCount();
  const ms = parseDuration(item.wait);
  if (ms === undefined) {
    const unitless = typeof item.wait === 'number' || /^\s*\d+\s*$/.test(String(item.wait));
    ctx.error(
      [...path, 'wait'],
      'invalid-wait',
      unitless
        ? `a wait needs a unit: ${item.wait}m, ${item.wait}h or ${item.wait}d, not ${JSON.stringify(item.wait)}`
        : `wait takes ${DURATION_HINT}, not ${JSON.stringify(item.wait)}`,
    );
  }
  const unless =
    item.unless === undefined ? undefined : checkConditions(item.unless, ctx, kinds, [...path, 'unless']);
  const until = item.until === undefined ? undefined : parseUntil(item.until, [...path, 'until'], ctx, kinds);
  if (ctx.errorCount() > before || ms === undefined) return undefined;
  return { ms, ...(unless ? { unless } : {}), ...(until ? { until } : {}) };
}

function parseUntil(
  raw: unknown,
  path: YamlPath,
  ctx: ProblemCollector,
  ruleKinds: readonly string[] | undefined,
): WaitUntil | undefined {
  if (!isPlainObject(raw)) return undefined; // the schema reported it
  const events =
    typeof raw.event === 'string' ? [raw.event] : Array.isArray(raw.event) ? (raw.event as string[]) : [];
  if (events.some((k) => !k.startsWith('message.') && !k.startsWith('contact.')))
    ctx.error(
      [...path, 'event'],
      'invalid-wait',
      'until listens to message.* or contact.* events: the ones about the contact',
    );
  const where =
    raw.where === undefined ? undefined : checkConditions(raw.where, ctx, events, [...path, 'where']);
  const sameConversation = raw.same === 'conversation';
  if (sameConversation) {
    const other = [...(ruleKinds ?? []), ...events].find((k) => !k.startsWith('message.'));
    if (other)
      ctx.error(
        [...path, 'same'],
        'invalid-wait',
        `same: conversation compares the conversation of two messages, and ${other} events carry none`,
      );
  }
  if (events.length === 0) return undefined;
  return { events, ...(where ? { where } : {}), sameConversation };
}
