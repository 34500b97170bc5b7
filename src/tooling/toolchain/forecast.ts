// `crm-rules forecast`: what the first sweep of each segment rule would do to the contacts of a
// contacts file: members now, who enters, the arm each member's run takes (branches), actions after
// guards and the messaging policy (counting the messages contacts already got, when known), CRM
// calls, and how long those take at the budget bulk work gets next to the event rules' load. Pure:
// data in, numbers out (prior messages come through the `priorMessages` callback).
import type { Contact } from '@crm-rules/crm-contract';
import { resolveFilterNames, resolveRelativeDates } from '../../language/segment-filters/resolved-filters';
import { segmentPredicate } from '../../language/segment-filters/segment-filter';
import type { MirroredContact } from '../../language/crm-terms/mirrored-contact';
import { actionLabel } from '../../language/catalogue/catalogue';
import { armsOf } from '../../language/rules/gates/branch-plan';
import type { BranchStep, RuleDefinition, ScheduleTrigger } from '../../language/rules/format/rule-types';
import { isCustomerMessage } from '../../language/policy/customer-messages';
import { OfflinePolicy, type PolicyTicket } from '../../language/policy/offline-policy';
import { actionDefinition } from '../../language/catalogue/catalogue';
import { declaredCategory, policyContactOf } from '../../language/policy/policy-categories';
import { policyApplies, type MessagingPolicy } from '../../language/policy/messaging-policy';
import { asContact } from './contacts-file';
import { ActionTally, type ActionForecast } from './forecast-actions';
import { NO_PRIOR_MESSAGES, priorSummary, type PriorMessages, type PriorSummary } from './prior-messages';
import { runPath } from './replay-path';
import { prepareActions, simulateActions, type PreparedAction, type SimulatedRun } from './simulate-actions';
import type { SnapshotDirectory } from './snapshot-directory';

export interface BudgetShape {
  limit: number;
  windowMs: number;
  /** Share of the budget bulk work keeps while event-triggered work waits. */
  bulkMinShare: number;
}

/** How many members take each arm of a branch their run reaches. */
export interface BranchForecast {
  /** Kind and where it is written, e.g. `split at do.1`. */
  branch: string;
  arms: { label: string; contacts: number }[];
  note?: string;
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
  branches?: BranchForecast[];
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
  /** The messages the contacts (the members of rules that message) got before: ledger or file. */
  priorMessages?: (contactIds: readonly string[]) => Promise<PriorMessages>;
}

export interface Forecast {
  now: string;
  contacts: number;
  budgetPerMinute: number;
  eventCallsPerMinute: number;
  bulkCallsPerMinute: number;
  /** With a policy that has caps: the messages counted as already sent, and where they came from. */
  priorMessages?: PriorSummary;
  rules: RuleForecast[];
}

export async function forecast(input: ForecastInput): Promise<Forecast> {
  const perMinute = (input.budget.limit * 60_000) / input.budget.windowMs;
  // Bulk work gets what event work leaves, and never less than its reserved share.
  const bulkPerMinute = Math.max(
    perMinute * input.budget.bulkMinShare,
    perMinute - input.eventCallsPerMinute,
  );
  const plans: Planned[] = [];
  for (const rule of input.rules)
    if (rule.trigger.kind === 'schedule') plans.push(await planRule(rule, rule.trigger, input));
  const prior = await priorFor(plans, input);
  // A contact in several segments is converted to the Contact shape the guards read once.
  const asContactOnce = memoized(asContact);
  const policy = new OfflinePolicy(input.policy, prior?.byContact);
  const simulated = plans.map((p) =>
    'error' in p ? p.error : simulateRule(p, input, bulkPerMinute, asContactOnce, policy),
  );
  // Every rule's messages submitted: judged per contact in time order, deferred ones at release.
  policy.settle();
  const rules = simulated.map((r) => ('finish' in r ? r.finish() : r));
  return {
    now: input.now.toISOString(),
    contacts: input.contacts.length,
    budgetPerMinute: perMinute,
    eventCallsPerMinute: round(input.eventCallsPerMinute),
    bulkCallsPerMinute: round(bulkPerMinute),
    ...(prior ? { priorMessages: priorSummary(prior) } : {}),
    rules,
  };
}

type Planned =
  | { rule: RuleDefinition; trigger: ScheduleTrigger; members: MirroredContact[]; prepared: PreparedAction[] }
  | { error: RuleForecast };

/** Members now and the rule's actions resolved, or why the rule cannot be forecast. */
async function planRule(
  rule: RuleDefinition,
  trigger: ScheduleTrigger,
  input: ForecastInput,
): Promise<Planned> {
  try {
    const named = await resolveFilterNames(trigger.segment.filters, input.directory.asDirectory());
    const filters = resolveRelativeDates(named, input.now);
    // The same tests as a sweep, without a trace per contact (nobody reads it here).
    const members = input.contacts.filter(segmentPredicate(filters));
    return { rule, trigger, members, prepared: await prepareActions(rule.actions, input.directory) };
  } catch (err) {
    const empty = { members: 0, entering: 0, sample: [], actions: [], calls: 0, durationMs: 0 };
    const base = { rule: rule.id, file: rule.source.file, mode: rule.mode };
    return { error: { ...base, ...empty, error: (err as Error).message } };
  }
}

/** The messages already sent, asked only when a cap can hold a message some rule sends. */
async function priorFor(plans: readonly Planned[], input: ForecastInput): Promise<PriorMessages | undefined> {
  if (!policyApplies(input.policy)) return undefined;
  const messaging = plans.filter(
    (p): p is Exclude<Planned, { error: RuleForecast }> =>
      !('error' in p) && p.rule.actions.some((a) => isCustomerMessage(a.type)),
  );
  if (!input.priorMessages || input.policy.caps.length === 0 || messaging.length === 0)
    return input.policy.caps.length > 0 ? NO_PRIOR_MESSAGES : undefined;
  return input.priorMessages([...new Set(messaging.flatMap((p) => p.members.map((m) => m.id)))]);
}

function simulateRule(
  plan: Exclude<Planned, { error: RuleForecast }>,
  input: ForecastInput,
  bulkPerMinute: number,
  contactOf: (m: MirroredContact) => Contact,
  policy: OfflinePolicy,
): { finish(): RuleForecast } {
  const { rule, trigger, members, prepared } = plan;
  const tallies = rule.actions.map(
    (a, i) =>
      new ActionTally({
        action: actionLabel(a),
        ...(rule.branches ? { arms: armsOf(rule.branches, i) } : {}),
      }),
  );
  const branches = rule.branches?.map(branchForecast);
  const at = (ms: number) => new Date(input.now.getTime() + ms);
  const runs: { run: SimulatedRun; tickets: Map<number, PolicyTicket>; delayMs: (i: number) => number }[] =
    [];
  for (const member of members) {
    const contact = contactOf(member);
    const facts = {
      event: SWEEP_EVENT,
      contact: contact as unknown as Record<string, unknown>,
      now: input.now,
    };
    const path = runPath(rule, facts, contact.id);
    for (const [branch, arm] of path.arms) branches![branch].arms[arm].contacts++;
    // A message is submitted and taken as done; settle() may skip it later (policyOutcomes).
    const tickets = new Map<number, PolicyTicket>();
    const run = simulateActions(
      prepared,
      contact,
      (action, i) => {
        // A run in a split's control arm sends no message (control-hold.ts), as in the engine.
        if (path.controlHeld(i)) return { skip: 'control_arm' };
        const category = declaredCategory(action);
        const ticket = policy.submit(contact.id, {
          type: action.type,
          ...(category ? { category } : {}),
          at: at(path.delayMs(i)),
          contact: policyContactOf(contact as unknown as Record<string, unknown>),
        });
        if (ticket) tickets.set(i, ticket);
        return undefined;
      },
      path.actions,
    );
    runs.push({ run, tickets, delayMs: path.delayMs });
  }
  return { finish: () => tallied() };

  function tallied(): RuleForecast {
    let calls = 0;
    for (const { run, tickets, delayMs } of runs) {
      calls += run.calls - policyOutcomes(run, tickets, prepared);
      run.outcomes.forEach((o, i) => tallies[i].count(o, delayMs(i)));
    }
    // Shadow rules record what they would do and call nobody.
    if (rule.mode === 'shadow') calls = 0;
    if (trigger.segment.sync) calls += 1; // the segment is created in the CRM once
    return {
      rule: rule.id,
      file: rule.source.file,
      mode: rule.mode,
      members: members.length,
      entering: members.length,
      sample: members.slice(0, input.sampleSize ?? 5).map((m) => ({ id: m.id, name: m.name })),
      actions: tallies.flatMap((t) => t.rows()),
      ...(branches ? { branches } : {}),
      calls,
      durationMs: Math.round((calls / bulkPerMinute) * 60_000),
    };
  }
}

/** The settled policy's outcomes written into the run's; returns the CRM calls of the messages skipped. */
function policyOutcomes(
  run: SimulatedRun,
  tickets: ReadonlyMap<number, PolicyTicket>,
  prepared: readonly PreparedAction[],
): number {
  let saved = 0;
  for (const [i, ticket] of tickets) {
    const o = ticket.outcome;
    if (run.outcomes[i].status !== 'sent' || !o) continue;
    if (o.kind === 'skipped') {
      run.outcomes[i] = { status: 'skipped', reason: o.reason };
      if (actionDefinition(prepared[i].resolved.type).callsCrm !== false) saved++;
    } else if (o.deferred) run.outcomes[i] = { status: 'sent', deferred: o.deferred };
  }
  return saved;
}

/** What a sweep's run reads as its event (src/pipeline/execution/timing/run-facts.ts). */
const SWEEP_EVENT = { type: 'sweep', data: {} };

function branchForecast(step: BranchStep): BranchForecast {
  return {
    branch: `${step.kind} at ${step.source.join('.')}`,
    arms: step.arms.map((a) => ({ label: a.label, contacts: 0 })),
    // No later event is known offline: a wait with on-event / on-timeout is taken to time out.
    ...(step.kind === 'outcome' ? { note: 'on-timeout assumed: no later event is known offline' } : {}),
    // Nothing is sent offline: the action is taken to succeed.
    ...(step.kind === 'failure' ? { note: 'succeeded assumed: no failure is known offline' } : {}),
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
