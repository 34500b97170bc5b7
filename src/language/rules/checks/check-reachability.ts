// Set-level checks of rules that can never act: a condition no contact can meet (error), and a rule
// made redundant by a higher-priority one that does the same on the same trigger (warning). Both
// are sound: a rule whose condition needs a tag or stage that no rule produces is NOT flagged, since
// people act in the CRM too, and every event kind can come from the CRM itself. docs/RULES.md.
import { actionDefinition, actionLabel } from '../../catalogue/catalogue';
import { undoing } from '../format/condition-leaves';
import { impossibleCondition } from './impossible-conditions';
import { eventsOf, where, type LoadedRule } from '../format/loaded-rule';
import type { RuleDefinition, RuleProblem } from '../format/rule-types';

export function checkImpossibleConditions(rules: LoadedRule[]): RuleProblem[] {
  return rules.flatMap(({ def, at }) => {
    const found = impossibleCondition(def.conditions);
    if (!found) return [];
    return [
      {
        ...at.pos(found.path),
        severity: 'error' as const,
        code: 'impossible-condition',
        message: `rule "${def.id}" can never match: ${found.reason}; fix the condition or remove the rule`,
      },
    ];
  });
}

/** Rules that act when an event comes in. */
const acting = (d: RuleDefinition) => d.enabled && d.mode === 'live' && d.trigger.kind === 'event';

/** No gate of its own that could make it skip a run the other one makes: once, cooldown, windows, limits, waits. */
const ungated = (d: RuleDefinition) =>
  !d.once &&
  d.atMost === undefined &&
  d.cooldownMs === undefined &&
  !d.window &&
  !d.actionWindows?.length &&
  !d.waits?.length &&
  !d.limit;

/**
 * Rule `b` is redundant when a rule `a` of higher priority, live and ungated, listens to every event
 * `b` listens to, has the very same conditions, and already makes every write `b` makes; the
 * writes of both are all state-checked (so they end as no_change after `a`), and no live rule on those
 * events undoes one of them in between, and nothing delays b's writes (wait, window, limit). The
 * runs of one event are processed one at a time per contact, in priority order (ARCHITECTURE.md).
 */
export function redundantRules(rules: LoadedRule[]): { rule: LoadedRule; by: LoadedRule }[] {
  const live = rules.filter((r) => acting(r.def));
  const stateChecked = (d: RuleDefinition) =>
    d.actions.every((x) => actionDefinition(x.type).repeat === 'state-checked');
  const conditionKey = new Map(live.map((r) => [r, JSON.stringify(r.def.conditions ?? null)]));
  const actionKeys = new Map(live.map((r) => [r, new Set(r.def.actions.map((x) => JSON.stringify(x)))]));
  const out: { rule: LoadedRule; by: LoadedRule }[] = [];
  for (const b of live) {
    // A wait, a window or a queued limit delays b's writes: by then someone may have undone a's.
    const delayed = !!b.def.waits?.length || !!b.def.window || !!b.def.actionWindows?.length || !!b.def.limit;
    if (b.def.actions.length === 0 || delayed || !stateChecked(b.def)) continue;
    const events = eventsOf(b.def);
    const by = live.find(
      (a) =>
        a.def.priority > b.def.priority &&
        conditionKey.get(a) === conditionKey.get(b) &&
        events.every((k) => eventsOf(a.def).includes(k)) &&
        ungated(a.def) &&
        stateChecked(a.def) &&
        [...actionKeys.get(b)!].every((x) => actionKeys.get(a)!.has(x)),
    );
    if (!by) continue;
    const undone = live.some(
      (c) =>
        eventsOf(c.def).some((k) => events.includes(k)) &&
        c.def.actions.some((y) => b.def.actions.some((x) => undoing(x, y))),
    );
    if (!undone) out.push({ rule: b, by });
  }
  return out;
}

export function checkRedundantRules(rules: LoadedRule[]): RuleProblem[] {
  return redundantRules(rules).map(({ rule, by }) => ({
    ...rule.at.pos(['rule']),
    severity: 'warning',
    code: 'unreachable',
    message: `rule "${rule.def.id}" never changes anything: rule "${by.def.id}" (${where(by.def.source)}, priority ${by.def.priority}) runs first on the same events and conditions and already does ${rule.def.actions.map(actionLabel).join(', ')}; remove one of them or make them differ`,
  }));
}
