// `crm-rules diff`: recorded events replayed through two rule sets (a base ref and the working
// tree), each with its messaging policy, reporting per rule which contacts would gain or lose which
// actions. Without a policy only rules whose definition differs are evaluated: the others act
// identically on both sides (offline, a rule's outcome depends on the event, the recorded contact
// and its own once/at-most/cooldown only). A policy's caps count across rules, so with one every
// rule that sends a customer message is replayed too, and an unchanged rule whose messages the
// policy now holds differently is reported (`unchanged`). The caps start from the messages each
// contact got before the first recorded event (the `priorMessages` lookup: ledger or file), the
// same on both sides. Pure apart from that lookup.
import { actionLabel } from '../../language/catalogue/catalogue';
import { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import { isCustomerMessage } from '../../language/policy/customer-messages';
import { policyApplies, type MessagingPolicy } from '../../language/policy/messaging-policy';
import { OfflinePolicy } from '../../language/policy/offline-policy';
import type { NameResolver, RuleDefinition } from '../../language/rules/format/rule-types';
import { replayRun, type PendingRun } from './replay-run';
import { ReplayPrevious } from './replay-previous';
import { contactIdOf, contactNameOf, factsOfRecorded, type RecordedEvent } from './recorded-events';
import { ReplayAdmission } from './replay-admission';
import { NO_PRIOR_MESSAGES, priorSummary, type PriorMessages, type PriorSummary } from './prior-messages';

export interface ContactChange {
  contactId: string;
  /** Name and phone as the event saw them, when it carried the contact (names everywhere). */
  contactName?: string;
  eventId: string;
  eventType: string;
  at: string;
  actions: string[];
}

export interface RuleChange {
  rule: string;
  /** added, removed or changed in the working tree; unchanged: only the policy holds it differently. */
  change: 'added' | 'removed' | 'changed' | 'unchanged';
  gained: { contacts: number; runs: number; examples: ContactChange[] };
  lost: { contacts: number; runs: number; examples: ContactChange[] };
  /** Every contact that loses / gains, for --format json and for tests. */
  lostContacts: string[];
  gainedContacts: string[];
}

export interface RuleSetDiff {
  events: number;
  changedRules: number;
  /** The messaging policy replayed: none on either side, the same on both, or changed. */
  policy: 'none' | 'same' | 'changed';
  /** With caps on either side: the messages counted as sent before the first event, and whence. */
  priorMessages?: PriorSummary;
  rules: RuleChange[];
}

export interface DiffPolicies {
  base?: MessagingPolicy;
  head?: MessagingPolicy;
  /** The messages the contacts got before (ledger or file), asked for the contacts of the events. */
  priorMessages?: (contactIds: readonly string[]) => Promise<PriorMessages>;
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

/** What one rule does on one side: its action labels, and the events (indexes, ascending) it acts on. */
interface Performed {
  labels: string[];
  events: number[];
  /** Rules with branches, or under a policy: the labels each event's run does (parallel to events). */
  eventLabels?: string[][];
  /** Under a policy: per event, the labels it skipped and why (parallel to events). */
  eventHeld?: Record<string, string>[];
  /** The runs replayed, until the side's policy settled (then eventLabels / eventHeld). */
  runs?: PendingRun[];
}

interface ReplaySide {
  set: CompiledRuleSet;
  admission: ReplayAdmission;
  policy?: OfflinePolicy;
  performed: Map<string, Performed>;
}

function side(
  rules: readonly RuleDefinition[],
  policy: MessagingPolicy | undefined,
  prior: PriorMessages | undefined,
): ReplaySide {
  return {
    set: new CompiledRuleSet(rules),
    admission: new ReplayAdmission(),
    ...(policyApplies(policy) ? { policy: new OfflinePolicy(policy, prior?.byContact) } : {}),
    // A label depends on the action only: computed once per rule, not per run.
    performed: new Map(rules.map((r) => [r.id, { labels: r.actions.map(actionLabel), events: [] }])),
  };
}

/**
 * Both sides in one pass: each event's facts are built once and read by both rule sets, without
 * the explain trace (nothing is stored). Each side keeps its own once/at-most/cooldown.
 */
function replay(sides: readonly ReplaySide[], events: readonly RecordedEvent[], names?: NameResolver): void {
  const kinds = new Set(sides.flatMap((s) => s.set.eventKinds()));
  // Change operators: the contacts of the recorded events kept, only when a rule uses one.
  const mirror = sides.some((s) => s.set.eventKinds().some((k) => s.set.needsPrevious(k)))
    ? new ReplayPrevious()
    : undefined;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const previous = mirror?.previousFor(e);
    if (!kinds.has(e.type)) continue;
    const facts = factsOfRecorded(e, previous);
    if (names) facts.names = names;
    const contactId = contactIdOf(e);
    const now = facts.now.getTime();
    for (const s of sides) {
      for (const rule of s.set.matchingRules(facts)) {
        if (rule.mode !== 'live' || rule.actions.length === 0) continue;
        if (!s.admission.admit(rule, contactId, now).admitted) continue;
        const performed = s.performed.get(rule.id)!;
        performed.events.push(i);
        if (rule.branches || s.policy)
          (performed.runs ??= []).push(replayRun(rule, performed.labels, facts, contactId, s.policy));
      }
    }
  }
  // Deferred messages are judged at their release, after every message due before it (the engine's order).
  for (const s of sides) {
    s.policy?.settle();
    for (const performed of s.performed.values()) {
      const runs = (performed.runs ?? []).map((r) => r.finish());
      if (performed.runs) {
        performed.eventLabels = runs.map((r) => r.labels);
        performed.eventHeld = runs.map((r) => r.held);
      }
      delete performed.runs;
    }
  }
}

const NOTHING: Performed = { labels: [], events: [] };

/** Per event either side acts on (ascending, merged): the labels lost and gained. */
function compareRule(
  before: Performed,
  after: Performed,
  events: readonly RecordedEvent[],
): { lost: ContactChange[]; gained: ContactChange[] } {
  const lost: ContactChange[] = [];
  const gained: ContactChange[] = [];
  const entry = (i: number, actions: string[]): ContactChange => {
    const e = events[i];
    const contactName = contactNameOf(e);
    return {
      contactId: contactIdOf(e),
      ...(contactName ? { contactName } : {}),
      eventId: e.id,
      eventType: e.type,
      at: e.createdAt,
      actions,
    };
  };
  // A rule with branches does the actions of its path for that event; others all their actions.
  const labelsBefore = (x: number) => before.eventLabels?.[x] ?? before.labels;
  const labelsAfter = (y: number) => after.eventLabels?.[y] ?? after.labels;
  // On an event both sides act on, a message one side's policy skipped says so.
  const why = (labels: string[], held: Record<string, string> | undefined, tense: string) =>
    labels.map((l) => (held?.[l] ? `${l} (${tense} ${held[l]})` : l));
  const [b, a] = [before.events, after.events];
  let x = 0;
  let y = 0;
  while (x < b.length || y < a.length) {
    if (y >= a.length || (x < b.length && b[x] < a[y])) {
      if (labelsBefore(x).length) lost.push(entry(b[x], labelsBefore(x)));
      x++;
    } else if (x >= b.length || a[y] < b[x]) {
      if (labelsAfter(y).length) gained.push(entry(a[y], labelsAfter(y)));
      y++;
    } else {
      const onlyBefore = labelsBefore(x).filter((l) => !labelsAfter(y).includes(l));
      const onlyAfter = labelsAfter(y).filter((l) => !labelsBefore(x).includes(l));
      if (onlyBefore.length) lost.push(entry(b[x], why(onlyBefore, after.eventHeld?.[y], 'now skipped:')));
      if (onlyAfter.length) gained.push(entry(a[y], why(onlyAfter, before.eventHeld?.[x], 'was skipped:')));
      x++;
      y++;
    }
  }
  return { lost, gained };
}

export async function diffRuleSets(
  base: readonly RuleDefinition[],
  head: readonly RuleDefinition[],
  events: readonly RecordedEvent[],
  examples = 5,
  names?: NameResolver,
  policies: DiffPolicies = {},
): Promise<RuleSetDiff> {
  const changed = changedRuleIds(base, head);
  // Under a policy, every rule that messages counts toward the caps the changed ones meet.
  const policed = policyApplies(policies.base) || policyApplies(policies.head);
  const messages = (r: RuleDefinition) => policed && r.actions.some((a) => isCustomerMessage(a.type));
  const pick = (rules: readonly RuleDefinition[]) => rules.filter((r) => changed.has(r.id) || messages(r));
  const [baseRules, headRules] = [pick(base), pick(head)];
  const prior = await priorFor([...baseRules, ...headRules], events, policies);
  const sides = [side(baseRules, policies.base, prior), side(headRules, policies.head, prior)];
  replay(sides, events, names);
  const [before, after] = sides.map((s) => s.performed);
  const compared = new Map<string, RuleChange['change']>(changed);
  for (const id of [...before.keys(), ...after.keys()]) if (!compared.has(id)) compared.set(id, 'unchanged');
  const rules: RuleChange[] = [];
  for (const [id, change] of [...compared].sort(([a], [b]) => a.localeCompare(b))) {
    const { lost, gained } = compareRule(before.get(id) ?? NOTHING, after.get(id) ?? NOTHING, events);
    // An unchanged rule is reported only when the policy makes it act differently.
    if (change === 'unchanged' && lost.length === 0 && gained.length === 0) continue;
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
  const policy = !policed ? 'none' : policies.base?.hash === policies.head?.hash ? 'same' : 'changed';
  const counted = prior ? { priorMessages: priorSummary(prior) } : {};
  return { events: events.length, changedRules: changed.size, policy, ...counted, rules };
}

/**
 * The messages sent before the first recorded event, asked only when a cap on either side can hold
 * a message, for the contacts of the events some replayed rule listens to. Later ones are dropped:
 * the replay sends those itself (a file recorded after the events would count them twice).
 */
async function priorFor(
  rules: readonly RuleDefinition[],
  events: readonly RecordedEvent[],
  policies: DiffPolicies,
): Promise<PriorMessages | undefined> {
  const capped = [policies.base, policies.head].some((p) => policyApplies(p) && p.caps.length > 0);
  if (!capped) return undefined;
  if (!policies.priorMessages || events.length === 0) return NO_PRIOR_MESSAGES;
  const kinds = new Set(new CompiledRuleSet(rules).eventKinds());
  const contacts = new Set(events.filter((e) => kinds.has(e.type)).map(contactIdOf));
  const prior = await policies.priorMessages([...contacts]);
  const first = events.reduce((t, e) => Math.min(t, new Date(e.createdAt).getTime()), Infinity);
  const byContact = new Map<string, Date[]>();
  for (const [id, sent] of prior.byContact) {
    const before = sent.filter((t) => t.getTime() < first);
    if (before.length > 0) byContact.set(id, before);
  }
  return { ...prior, byContact };
}
