// `do:` as written: CRM actions (parsed by parse-actions.ts, the catalogue's part) and the
// control steps around them: `- wait: 2h` (with unless / until) and a `window:` on an action.
// Actions keep their own indices (action results are per action), waits say which action they
// come before.
import { checkConditions } from './check-conditions';
import { checkWindow } from './check-timing';
import { DURATION_HINT, parseDuration } from './durations';
import { parseAction } from './parse-actions';
import { isPlainObject, type RuleContext } from './rule-context';
import type { RuleAction, RuleDefinition, WaitStep, WaitUntil } from './rule-types';
import type { YamlPath } from './yaml-source';

type Raw = Record<string, unknown>;

export interface ParsedSteps {
  /** One entry per action item (undefined where it has a problem), as parseActionItems gives. */
  items: (RuleAction | undefined)[];
  timing: Pick<RuleDefinition, 'waits' | 'actionWindows' | 'actionSteps'>;
}

export function isWaitItem(item: unknown): item is Raw {
  return isPlainObject(item) && 'wait' in item;
}

export function parseSteps(
  raw: unknown,
  path: YamlPath,
  ctx: RuleContext,
  rule: { kinds: readonly string[] | undefined; timezone: string | undefined },
): ParsedSteps | undefined {
  if (!Array.isArray(raw)) return undefined;
  const items: (RuleAction | undefined)[] = [];
  const waits: WaitStep[] = [];
  const actionWindows: { action: number; window: NonNullable<RuleDefinition['window']> }[] = [];
  const actionSteps: number[] = [];
  raw.forEach((item, i) => {
    const at = [...path, i];
    if (isWaitItem(item)) {
      const wait = parseWait(item, at, ctx, rule.kinds);
      if (wait) waits.push({ beforeAction: items.length, ...wait });
      if (i === raw.length - 1)
        ctx.error(
          at,
          'invalid-wait',
          'a wait at the end of do waits for nothing: put it before the actions it delays',
          'key',
        );
      return;
    }
    const { window, ...action } = isPlainObject(item) ? item : { window: undefined };
    if (window !== undefined) {
      const w = checkWindow(window, [...at, 'window'], rule.timezone, ctx);
      if (w) actionWindows.push({ action: items.length, window: w });
    }
    actionSteps.push(i);
    items.push(parseAction(isPlainObject(item) ? action : item, at, ctx));
  });
  return {
    items,
    timing: {
      ...(waits.length > 0 ? { waits, actionSteps } : {}),
      ...(actionWindows.length > 0 ? { actionWindows } : {}),
    },
  };
}

function parseWait(
  item: Raw,
  path: YamlPath,
  ctx: RuleContext,
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
  ctx: RuleContext,
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
