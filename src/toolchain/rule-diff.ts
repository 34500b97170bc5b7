// `crm-rules diff`: recorded events replayed through two rule sets (a base ref and the working
// tree), reporting per rule which contacts would gain or lose which actions. Only rules whose
// definition differs are evaluated: the others act identically on both sides (offline, a rule's
// outcome depends on the event, the recorded contact and its own once/cooldown only). Pure.
import { actionLabel } from '../actions/catalogue/catalogue';
import { CompiledRuleSet } from '../matching/compiled-rule-set';
import type { RuleDefinition } from '../rules/rule-types';
import { contactIdOf, factsOfRecorded, type RecordedEvent } from './recorded-events';
import { ReplayAdmission } from './replay-admission';

export interface ContactChange {
  contactId: string;
  eventId: string;
  eventType: string;
  at: string;
  actions: string[];
}

export interface RuleChange {
  rule: string;
  /** added, removed or changed in the working tree. */
  change: 'added' | 'removed' | 'changed';
  gained: { contacts: number; runs: number; examples: ContactChange[] };
  lost: { contacts: number; runs: number; examples: ContactChange[] };
  /** Every contact that loses / gains, for --format json and for tests. */
  lostContacts: string[];
  gainedContacts: string[];
}

export interface RuleSetDiff {
  events: number;
  changedRules: number;
  rules: RuleChange[];
}

/** Rules whose definition differs between the sets (by content hash), with how. */
export function changedRuleIds(
  base: readonly RuleDefinition[],
  head: readonly RuleDefinition[],
): Map<string, RuleChange['change']> {
  const before = new Map(base.map((r) => [r.id, r.version]));
  const after = new Map(head.map((r) => [r.id, r.version]));
  const out = new Map<string, RuleChange['change']>();
  for (const [id, v] of after)
    if (!before.has(id)) out.set(id, 'added');
    else if (before.get(id) !== v) out.set(id, 'changed');
  for (const id of before.keys()) if (!after.has(id)) out.set(id, 'removed');
  return out;
}

/** Per event index and rule: the actions (texts) the rule would perform, live rules only. */
async function replay(
  rules: readonly RuleDefinition[],
  events: readonly RecordedEvent[],
): Promise<Map<string, Map<number, string[]>>> {
  const set = new CompiledRuleSet(rules);
  const admission = new ReplayAdmission();
  const byRule = new Map<string, Map<number, string[]>>(rules.map((r) => [r.id, new Map()]));
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (set.rulesForEvent(e.type).length === 0) continue;
    const facts = factsOfRecorded(e);
    const contactId = contactIdOf(e);
    for (const ev of await set.evaluateEvent(facts)) {
      if (!ev.matched || ev.mode !== 'live' || ev.actions.length === 0) continue;
      if (!admission.admit(set.rule(ev.ruleId)!, contactId, facts.now.getTime()).admitted) continue;
      byRule.get(ev.ruleId)!.set(i, ev.actions.map(actionLabel));
    }
  }
  return byRule;
}

export async function diffRuleSets(
  base: readonly RuleDefinition[],
  head: readonly RuleDefinition[],
  events: readonly RecordedEvent[],
  examples = 5,
): Promise<RuleSetDiff> {
  const changed = changedRuleIds(base, head);
  const pick = (rules: readonly RuleDefinition[]) => rules.filter((r) => changed.has(r.id));
  const [before, after] = await Promise.all([replay(pick(base), events), replay(pick(head), events)]);
  const rules: RuleChange[] = [];
  for (const [id, change] of [...changed].sort(([a], [b]) => a.localeCompare(b))) {
    const b = before.get(id) ?? new Map<number, string[]>();
    const a = after.get(id) ?? new Map<number, string[]>();
    const lost: ContactChange[] = [];
    const gained: ContactChange[] = [];
    for (const i of [...new Set([...b.keys(), ...a.keys()])].sort((x, y) => x - y)) {
      const was = b.get(i) ?? [];
      const now = a.get(i) ?? [];
      const e = events[i];
      const entry = (actions: string[]) => ({
        contactId: contactIdOf(e),
        eventId: e.id,
        eventType: e.type,
        at: e.createdAt,
        actions,
      });
      const minus = was.filter((x) => !now.includes(x));
      const plus = now.filter((x) => !was.includes(x));
      if (minus.length) lost.push(entry(minus));
      if (plus.length) gained.push(entry(plus));
    }
    const summary = (list: ContactChange[]) => ({
      contacts: new Set(list.map((c) => c.contactId)).size,
      runs: list.length,
      examples: list.slice(0, examples),
    });
    rules.push({
      rule: id,
      change,
      gained: summary(gained),
      lost: summary(lost),
      lostContacts: [...new Set(lost.map((c) => c.contactId))].sort(),
      gainedContacts: [...new Set(gained.map((c) => c.contactId))].sort(),
    });
  }
  return { events: events.length, changedRules: changed.size, rules };
}
