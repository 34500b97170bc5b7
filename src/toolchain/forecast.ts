// `crm-rules forecast`: what the first sweep of each segment rule would do to the contacts of a
// contacts file: members now, who enters, actions after guards, CRM calls, and how long those
// take at the budget bulk work gets next to the event rules' load. Pure: data in, numbers out.
import type { Contact } from '@crm-rules/crm-contract';
import { resolveFilterNames, resolveRelativeDates } from '../language/segment-filters/resolved-filters';
import { segmentPredicate } from '../language/segment-filters/segment-filter';
import type { MirroredContact } from '../crm-contract/mirrored-contact';
import { actionLabel } from '../language/catalogue/catalogue';
import type { RuleDefinition, ScheduleTrigger } from '../language/rules/rule-types';
import { OfflinePolicy } from '../language/policy/offline-policy';
import type { MessagingPolicy } from '../language/policy/messaging-policy';
import { asContact } from './contacts-file';
import { prepareActions, simulateActions } from './simulate-actions';
import type { SnapshotDirectory } from './snapshot-directory';

export interface BudgetShape {
  limit: number;
  windowMs: number;
  /** Share of the budget bulk work keeps while event-triggered work waits. */
  bulkMinShare: number;
}

export interface ActionForecast {
  action: string;
  sent: number;
  skipped: Record<string, number>;
  /** Sent later than the sweep: held by the messaging policy (quiet hours, a cap with over-cap: defer). */
  deferred?: Record<string, number>;
}

export interface RuleForecast {
  rule: string;
  file: string;
  mode: 'live' | 'shadow';
  members: number;
  /** On the first sweep nobody is a member yet, so every member enters. */
  entering: number;
  sample: { id: string; name: string }[];
  actions: ActionForecast[];
  calls: number;
  /** At the bulk share of the budget left beside the event load. */
  durationMs: number;
  /** Why the rule could not be forecast (an unknown name, a bad filter). */
  error?: string;
}

export interface ForecastInput {
  rules: readonly RuleDefinition[];
  contacts: readonly MirroredContact[];
  directory: SnapshotDirectory;
  now: Date;
  budget: BudgetShape;
  /** CRM calls per minute the event rules already make (from a recorded event export). */
  eventCallsPerMinute: number;
  sampleSize?: number;
  /** The messaging policy: caps count per contact across every forecast rule, quiet hours at `now`. */
  policy?: MessagingPolicy;
}

export interface Forecast {
  now: string;
  contacts: number;
  budgetPerMinute: number;
  eventCallsPerMinute: number;
  bulkCallsPerMinute: number;
  rules: RuleForecast[];
}

export async function forecast(input: ForecastInput): Promise<Forecast> {
  const perMinute = (input.budget.limit * 60_000) / input.budget.windowMs;
  // Bulk work gets what event work leaves, and never less than its reserved share.
  const bulkPerMinute = Math.max(
    perMinute * input.budget.bulkMinShare,
    perMinute - input.eventCallsPerMinute,
  );
  const rules: RuleForecast[] = [];
  // A contact in several segments is converted to the Contact shape the guards read once.
  const asContactOnce = memoized(asContact);
  const policy = new OfflinePolicy(input.policy);
  for (const rule of input.rules) {
    if (rule.trigger.kind !== 'schedule') continue;
    rules.push(await forecastRule(rule, rule.trigger, input, bulkPerMinute, asContactOnce, policy));
  }
  return {
    now: input.now.toISOString(),
    contacts: input.contacts.length,
    budgetPerMinute: perMinute,
    eventCallsPerMinute: round(input.eventCallsPerMinute),
    bulkCallsPerMinute: round(bulkPerMinute),
    rules,
  };
}

async function forecastRule(
  rule: RuleDefinition,
  trigger: ScheduleTrigger,
  input: ForecastInput,
  bulkPerMinute: number,
  contactOf: (m: MirroredContact) => Contact,
  policy: OfflinePolicy,
): Promise<RuleForecast> {
  const base = { rule: rule.id, file: rule.source.file, mode: rule.mode };
  const empty = { members: 0, entering: 0, sample: [], actions: [], calls: 0, durationMs: 0 };
  let prepared;
  let members: MirroredContact[];
  try {
    const named = await resolveFilterNames(trigger.segment.filters, input.directory.asDirectory());
    const filters = resolveRelativeDates(named, input.now);
    // The same tests as a sweep, without a trace per contact (nobody reads it here).
    members = input.contacts.filter(segmentPredicate(filters));
    prepared = await prepareActions(rule.actions, input.directory);
  } catch (err) {
    return { ...base, ...empty, error: (err as Error).message };
  }
  const actions: ActionForecast[] = rule.actions.map((a) => ({
    action: actionLabel(a),
    sent: 0,
    skipped: {},
  }));
  let calls = 0;
  // Shadow rules record what they would do and call nobody.
  for (const member of members) {
    const contact = contactOf(member);
    const run = simulateActions(prepared, contact, (action) => {
      const d = policy.decide(contact.id, action.type, input.now, contact.customFields);
      return d?.kind === 'skip' ? { skip: d.reason } : d?.kind === 'defer' ? { defer: d.reason } : undefined;
    });
    run.outcomes.forEach((o, i) => {
      if (o.status === 'skipped') actions[i].skipped[o.reason] = (actions[i].skipped[o.reason] ?? 0) + 1;
      else if (!o.deferred) actions[i].sent++;
      else (actions[i].deferred ??= {})[o.deferred] = (actions[i].deferred![o.deferred] ?? 0) + 1;
    });
    calls += run.calls;
  }
  if (rule.mode === 'shadow') calls = 0;
  if (trigger.segment.sync) calls += 1; // the segment is created in the CRM once
  return {
    ...base,
    members: members.length,
    entering: members.length,
    sample: members.slice(0, input.sampleSize ?? 5).map((m) => ({ id: m.id, name: m.name })),
    actions,
    calls,
    durationMs: Math.round((calls / bulkPerMinute) * 60_000),
  };
}

function memoized(fn: (m: MirroredContact) => Contact): (m: MirroredContact) => Contact {
  const seen = new WeakMap<MirroredContact, Contact>();
  return (m) => {
    let c = seen.get(m);
    if (!c) seen.set(m, (c = fn(m)));
    return c;
  };
}

const round = (n: number) => Math.round(n * 10) / 10;
