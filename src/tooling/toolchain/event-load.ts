// The load event rules put on the budget, estimated from recorded events: each event replayed
// through the rules (once/at-most/cooldown, branches and guards applied), one contact read per message event a rule
// listens to (the engine reads the contact's state), one call per action that proceeds. Pure.
import type { Contact } from '@crm-rules/crm-contract';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import { contactIdOf, factsOfRecorded, type RecordedEvent } from './recorded-events';
import { ReplayAdmission } from './replay-admission';
import { prepareActions, simulateActions, type PreparedAction } from './simulate-actions';
import type { SnapshotDirectory } from './snapshot-directory';
import type { NameResolver } from '../../language/rules/format/rule-types';
import { ReplayPrevious } from './replay-previous';
import { runPath } from './replay-path';

export interface EventLoad {
  events: number;
  calls: number;
  spanMinutes: number;
  callsPerMinute: number;
}

export async function eventLoad(
  set: CompiledRuleSet,
  events: readonly RecordedEvent[],
  directory: SnapshotDirectory,
  names?: NameResolver,
): Promise<EventLoad> {
  const prepared = new Map<string, PreparedAction[] | undefined>();
  const admission = new ReplayAdmission();
  let calls = 0;
  let first = Infinity;
  let last = -Infinity;
  // Change operators: the contacts of the recorded events kept, only when a rule uses one.
  const mirror = set.eventKinds().some((k) => set.needsPrevious(k)) ? new ReplayPrevious() : undefined;
  for (const e of events) {
    const facts = factsOfRecorded(e, mirror?.previousFor(e));
    if (names) facts.names = names;
    const t = facts.now.getTime();
    first = Math.min(first, t);
    last = Math.max(last, t);
    if (set.rulesForEvent(e.type).length === 0) continue;
    if (e.type.startsWith('message.')) calls++;
    for (const ev of await set.evaluateEvent(facts)) {
      if (!ev.matched || ev.mode !== 'live') continue;
      if (!admission.admit(set.rule(ev.ruleId)!, contactIdOf(e), t).admitted) continue;
      if (!prepared.has(ev.ruleId))
        prepared.set(ev.ruleId, await prepareActions(ev.actions, directory).catch(() => undefined));
      const actions = prepared.get(ev.ruleId);
      // An unresolvable name fails the action at run time: the resolve calls are all it costs.
      // A rule with branches does the actions of its run's path only (replay-path.ts).
      const path = runPath(set.rule(ev.ruleId)!, facts, contactIdOf(e)).actions;
      if (!actions || !facts.contact) calls += path.length;
      else calls += simulateActions(actions, facts.contact as unknown as Contact, undefined, path).calls;
    }
  }
  const spanMinutes = events.length > 1 ? Math.max(1, (last - first) / 60_000) : 1;
  return { events: events.length, calls, spanMinutes, callsPerMinute: calls / spanMinutes };
}
