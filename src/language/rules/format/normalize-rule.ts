// One rule as written -> a RuleDefinition, with every problem reported: schema first (ajv),
// then the semantics of each part that passed the schema.
import { stampRuleCategory } from './message-categories';
import { checkConditions } from '../checks/check-conditions';
import { checkGoal } from '../gates/goal-window';
import { checkSchedule } from '../checks/check-schedule';
import { checkTimeZone } from '../checks/check-timezone';
import { contentHash } from './content-hash';
import { parseDuration } from './durations';
import { factUnavailableReason } from './fact-shapes';
import { checkLimit, checkWindow } from '../checks/check-timing';
import { completeActions, parseActionItems } from './parse-actions';
import { actionPath, parseSteps } from './parse-steps';
import { isPlainObject, ProblemCollector } from './problem-collector';
import { actionDefinition } from '../../catalogue/catalogue';
import type { TriggerKinds } from '../../catalogue/action-definition';
import { templateProblems } from '../../catalogue/template-values';
import { checkStepRefs } from '../checks/check-step-refs';
import { contactOnlyBlocker } from '../checks/check-backfill';
import type { RuleAction, RuleDefinition, RuleProblem, RuleTrigger } from './rule-types';
import { issuesToProblems, ruleValidator, schemaIssues } from './schema-problems';
import type { StepLists } from './step-lists';
import type { Locator, YamlPath } from './yaml-source';

type Raw = Record<string, unknown>;

export function normalizeRule(
  raw: unknown,
  at: Locator,
  problems: RuleProblem[],
  calendars: Readonly<Record<string, readonly string[]>> = {},
  stepLists: StepLists = new Map(),
): RuleDefinition | undefined {
  const issues = schemaIssues(ruleValidator(), raw);
  problems.push(...issuesToProblems(issues, at));
  if (!isPlainObject(raw)) return undefined;
  const ctx = new ProblemCollector(at, problems, calendars, stepLists);
  // The semantic checks skip whatever the schema refused (wrong types, unknown keys), so each
  // problem is reported once; an `on` the schema refused gives no event kinds to check against.
  const onIsValid = !issues.some((i) => i.path[0] === 'on');
  const trigger = raw.on === undefined ? undefined : triggerOf(raw, ctx);
  const kinds = onIsValid && trigger?.kind === 'event' ? trigger.events : undefined;

  let conditions: Raw | undefined;
  if (raw.if !== undefined) {
    if (triggerKinds(raw.on) === 'schedule')
      ctx.error(['if'], 'schema', 'segment rules take no `if`: the segment filters decide who is in', 'key');
    else conditions = checkConditions(raw.if, ctx, kinds);
  }
  const timezone = ruleTimezone(raw, trigger, ctx);
  const before = ctx.errorCount();
  const steps = parseSteps(raw.do, ['do'], ctx, { kinds, timezone });
  const parsedActions = completeActions(steps?.items, before, ctx);
  const actions = parsedActions && stampRuleCategory(parsedActions, raw.category);
  if (steps && onIsValid)
    checkActionsFit(
      steps.items,
      triggerKinds(raw.on) ?? [],
      ctx,
      (i) => actionPath(steps.timing, i),
      steps.itemKinds,
      steps.itemInFailure,
    );
  const { goal, goalWithinMs } = checkGoal(raw.goal, ctx);
  const window = raw.window === undefined ? undefined : checkWindow(raw.window, ['window'], timezone, ctx);
  const limit = raw.limit === undefined ? undefined : checkLimit(raw.limit, ['limit'], ctx);
  const atMost = typeof raw['at-most'] === 'number' ? raw['at-most'] : undefined;
  if (raw.once !== undefined && atMost !== undefined)
    ctx.error(['at-most'], 'invalid-limit', 'once: per-contact means at-most: 1; keep one of them', 'key');
  const cooldownMs = parseDuration(raw.cooldown);
  if (raw.once !== undefined && raw.cooldown !== undefined)
    ctx.warn(['cooldown'], 'redundant', 'cooldown has no effect with once: per-contact', 'key');

  if (raw.backfill === true && trigger) {
    const blocker = contactOnlyBlocker(trigger, conditions);
    if (blocker) ctx.error(['backfill'], 'invalid-backfill', `backfill: ${blocker}`, 'key');
  }

  if (issues.length > 0 || ctx.errorCount() > 0 || !trigger || !actions) return undefined;
  const def: Omit<RuleDefinition, 'source' | 'version'> = {
    id: raw.rule as string,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    trigger,
    ...(timezone ? { timezone } : {}),
    ...(conditions ? { conditions } : {}),
    actions,
    ...(raw.once === 'per-contact' ? { once: 'per-contact' as const } : {}),
    ...(raw.backfill === true ? { backfill: true } : {}),
    ...(atMost !== undefined ? { atMost } : {}),
    ...(cooldownMs !== undefined ? { cooldownMs } : {}),
    ...(window ? { window } : {}),
    ...steps?.timing,
    ...(goal ? { goal } : {}),
    ...(goal && goalWithinMs !== undefined ? { goalWithinMs } : {}),
    ...(limit ? { limit } : {}),
    enabled: raw.enabled !== false,
    priority: typeof raw.priority === 'number' ? raw.priority : 0,
    mode: raw.mode === 'shadow' ? 'shadow' : 'live',
  };
  // Where called steps are written is not part of what the rule does: not in its version.
  const origins = steps?.origins ? { actionOrigins: steps.origins } : {};
  return { ...def, ...origins, source: at.pos([]), version: contentHash(def) };
}

function triggerOf(raw: Raw, ctx: ProblemCollector): RuleTrigger | undefined {
  const on = raw.on;
  const onlyForSegments = ['when', 'on-leave'].filter((k) => raw[k] !== undefined);
  if (typeof on === 'string' || Array.isArray(on)) {
    for (const k of onlyForSegments)
      ctx.error([k], 'schema', `\`${k}\` only applies to segment rules (on: { schedule, segment })`, 'key');
    return { kind: 'event', events: typeof on === 'string' ? [on] : (on as string[]) };
  }
  if (!isPlainObject(on)) return undefined;
  const schedule = checkSchedule(on, ctx);
  const before = ctx.errorCount();
  const items = raw['on-leave'] === undefined ? [] : parseActionItems(raw['on-leave'], ['on-leave'], ctx);
  if (items) checkActionsFit(items, 'schedule', ctx, (i) => ['on-leave', i]);
  const onLeave = completeActions(items, before, ctx);
  if (!schedule || !onLeave) return undefined;
  return {
    ...schedule,
    when: raw.when === 'every-run' ? 'every-run' : 'entered',
    onLeave: stampRuleCategory(onLeave, raw.category),
  };
}

/** `timezone:`, else the schedule's: calendar facts of a segment rule read the zone its cron runs in. */
function ruleTimezone(raw: Raw, trigger: RuleTrigger | undefined, ctx: ProblemCollector): string | undefined {
  if (typeof raw.timezone === 'string')
    return checkTimeZone(raw.timezone, ['timezone'], ctx) ? raw.timezone : undefined;
  return trigger?.kind === 'schedule' ? trigger.timezone : undefined;
}

/** The event kinds of `on`, 'schedule' for a segment rule (even one with a broken schedule), or undefined. */
function triggerKinds(on: unknown): readonly string[] | 'schedule' | undefined {
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on.filter((k): k is string => typeof k === 'string');
  return isPlainObject(on) ? 'schedule' : undefined;
}

/** Each action must be able to work in its trigger (the catalogue says why not), and its templates read known facts. */
function checkActionsFit(
  actions: (RuleAction | undefined)[],
  trigger: TriggerKinds,
  ctx: ProblemCollector,
  pathOf: (action: number) => YamlPath,
  /** Per action, the kinds its templates read (an on-event arm: its wait's `until` events). */
  itemKinds: readonly (readonly string[] | undefined)[] = [],
  /** Per action, whether it lies in an on-failure arm (its templates may read failure.*). */
  itemInFailure: readonly boolean[] = [],
): void {
  const kinds = trigger === 'schedule' ? [] : trigger;
  const noContact = kinds.find((k) => factUnavailableReason('contact', k));
  actions.forEach((action, i) => {
    if (!action) return;
    const at = pathOf(i);
    const def = actionDefinition(action.type);
    const reason =
      noContact && def.needsContact !== false
        ? `${action.type} acts on a contact, and ${noContact} events carry none`
        : def.unavailableIn?.(trigger);
    if (reason) return ctx.error(at, 'invalid-action', reason);
    const facts = trigger === 'schedule' ? trigger : (itemKinds[i] ?? trigger);
    for (const t of def.templates?.(action) ?? [])
      for (const problem of templateProblems(t.text, facts, { inFailureArm: itemInFailure[i] === true }))
        (problem.severity === 'warning' ? ctx.warn : ctx.error).call(
          ctx,
          [...at, action.type, ...t.path],
          problem.code,
          problem.message,
        );
  });
  for (const p of checkStepRefs(actions))
    ctx.error([...pathOf(p.index), actions[p.index]!.type, ...p.path], 'unknown-fact', p.message);
}
