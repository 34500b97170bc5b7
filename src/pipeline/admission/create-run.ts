// Writes a run and its action rows in the caller's transaction. Idempotency lives in the unique
// constraints: (trigger, rule, contact) for runs, (rule, contact) for once/cooldown enrollments.
// Only the events pipeline, segment sweeps and manual runs (src/pipeline/admission/manual-runs) create runs.
import type { DataSource, EntityManager } from 'typeorm';
import type { Queryable } from '../../persistence/sql/queryable';
import { timingPlanOf, type TimingPlan } from '../../language/rules/gates/run-gates';
import type { RuleDefinition, RuleEvaluation } from '../../language/rules/format/rule-types';
import { canLoop, OWN_WRITE_LOOP, OWN_WRITE_LOOP_WINDOW_MS } from './loop-brake';
import { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import { ledgerId } from '../../persistence/partitions/ledger-id';
import { EnrollmentsRepository } from '../../persistence/ledger/enrollments.repository';
import { InboxEventsRepository } from '../../persistence/ledger/inbox-events.repository';
import type { ToPack } from '../../persistence/ledger/packed-payload';
import type { UnmatchedDecision } from '../../persistence/ledger/inbox-event.entity';
import type { RunPriority, RunStatus } from '../../persistence/ledger/run.entity';
import type { RunInsert } from '../../persistence/ledger/run-rows';
import { RunsRepository } from '../../persistence/ledger/runs.repository';

export interface NewRun {
  triggerKey: string;
  /**
   * The trigger's time, the same for every retry of it (the event's `event_at`, the sweep's tick,
   * the bulk run's creation): the runs' partition key, part of their unique key.
   */
  triggerAt: Date;
  inboxEventId: string | null;
  eventType: string;
  replay?: boolean;
  /** interactive for events, bulk for sweeps: the gateway priority of the run's CRM calls. */
  priority: RunPriority;
  rule: RuleDefinition;
  ruleSetVersion: string;
  /** The deployed version (git commit or `dir-<hash>`) the set came from, when known. */
  rulesCommit?: string;
  contactId: string;
  evaluation: RuleEvaluation;
  /** An operator paused the rule (console): a match is recorded as suppressed `paused`, nothing acts. */
  paused?: boolean;
  contactSnapshot: Record<string, unknown> | null;
  correlationId: string | null;
}

export interface PendingRun {
  id: string;
  contactId: string;
  status: RunStatus;
  priority: RunPriority;
  /** Settled at creation: each action's guard refusal (for the actions metric, after the commit). */
  settled?: SettledAction[];
  /** Set when the loop brake suppressed it (`own_write_loop`): counted and logged after the commit. */
  reason?: string;
}

/** An action of a run settled at creation: skipped as the runner would have skipped it. */
export interface SettledAction {
  type: string;
  reason: string;
  detail: string;
}

/**
 * Decides, in the run's transaction, a run whose every action the runner would only skip
 * (src/pipeline/admission/settle-in-transaction.ts); undefined leaves the run pending for the runner. A hook
 * so the ledger depends on no service (the directory it needs is cached in the events worker).
 */
export type SettleHook = (
  tx: Queryable,
  run: NewRun,
  timing: TimingPlan | undefined,
) => Promise<SettledAction[] | undefined>;

export async function createRun(tx: EntityManager, input: NewRun, settle?: SettleHook): Promise<PendingRun> {
  const id = ledgerId(input.triggerAt);
  const { status, reason } = !input.evaluation.matched
    ? { status: 'not_matched' as RunStatus, reason: null }
    : input.paused
      ? { status: 'suppressed' as RunStatus, reason: 'paused' }
      : await admission(tx, input, id);
  const shadow = input.evaluation.mode === 'shadow';
  // After admission (unchanged): a run that may act and whose every action its guard refuses is
  // finished here, like a shadow run, instead of by the runner.
  const settled =
    status === 'pending' && !shadow && settle ? await settle(tx, input, timingOf(input)) : undefined;
  const finalStatus: RunStatus = status === 'pending' && (shadow || settled) ? 'succeeded' : status;
  const inserted = await new RunsRepository(tx).insert(runInsert(input, id, finalStatus, reason));
  const run = { id, contactId: input.contactId, priority: input.priority };
  if (!inserted) return { ...run, status: 'suppressed' }; // same trigger seen before
  if (status === 'pending') {
    await new ActionResultsRepository(tx).insertForRun(
      id,
      input.triggerAt,
      input.evaluation.actions,
      shadow ? 'shadow' : (settled ?? 'pending'),
    );
  }
  return { ...run, status: finalStatus, ...(settled ? { settled } : {}), ...(reason ? { reason } : {}) };
}

/**
 * An event no rule matched: the evaluations of the rules that listened (all not matched). Its
 * payload (and previous contact state) are kept packed on its row: no run will read them in SQL.
 */
export interface UnmatchedEvent extends ToPack {
  inboxEventId: string;
  runs: NewRun[];
}

/** The compact decision kept on an unmatched event's row: its rule set and how many rules listened. */
export function unmatchedDecision(runs: readonly NewRun[]): UnmatchedDecision {
  const [first] = runs;
  return {
    set: first?.ruleSetVersion ?? '',
    ...(first?.rulesCommit ? { commit: first.rulesCommit } : {}),
    rules: runs.length,
  };
}

/**
 * Several events no rule matched, recorded with one statement whatever their number: the claim of
 * every event (pending → processed) with its decision and its packed payload on its own row, and no
 * runs rows (issue 35: one compact row per unmatched event; the explain is rebuilt on demand). True for each event
 * claimed; false when it was no longer pending (claimed by another job): nothing written.
 */
export async function recordUnmatchedEvents(
  db: DataSource | EntityManager,
  events: readonly UnmatchedEvent[],
): Promise<boolean[]> {
  const decisions = new Map(events.map((e) => [e.inboxEventId, unmatchedDecision(e.runs)]));
  const toPack = new Map(events.map((e) => [e.inboxEventId, e]));
  const claimed = await new InboxEventsRepository(db).claimUnmatched(decisions, toPack);
  return events.map((e) => claimed.has(e.inboxEventId));
}

export function runInsert(input: NewRun, id: string, status: RunStatus, reason: string | null): RunInsert {
  return {
    id,
    triggerKey: input.triggerKey,
    triggerAt: input.triggerAt,
    inboxEventId: input.inboxEventId,
    ruleId: input.rule.id,
    ruleVersion: input.rule.version,
    ruleSetVersion: input.ruleSetVersion,
    rulesCommit: input.rulesCommit ?? null,
    contactId: input.contactId,
    status,
    reason,
    mode: input.evaluation.mode,
    priority: input.priority,
    trace: input.evaluation.trace,
    actions: input.evaluation.actions,
    contactSnapshot: input.contactSnapshot,
    correlationId: input.correlationId,
    timing: timingOf(input),
  };
}

/** The rule's own actions carry its waits and windows (a segment's on-leave actions do not). */
export function timingOf(input: NewRun): TimingPlan | undefined {
  return input.evaluation.actions === input.rule.actions ? timingPlanOf(input.rule) : undefined;
}

/** Whether a matched rule may act now: loop protection, then once / cooldown. */
async function admission(
  tx: EntityManager,
  input: NewRun,
  runId: string,
): Promise<{ status: RunStatus; reason: string | null }> {
  if (
    loopChecked(input) &&
    (await new ActionResultsRepository(tx).recentSuccess(
      input.rule.id,
      input.contactId,
      OWN_WRITE_LOOP_WINDOW_MS,
    ))
  ) {
    return OWN_WRITE_LOOP;
  }
  return enrollmentAdmission(tx, input, runId);
}

/**
 * Loop protection looks at contact updates only, for rules that can cause one (an action whose
 * CRM write emits contact.updated, in any arm); an operator's replay is deliberate. A rule that
 * only calls out (http-request) or only messages cannot re-trigger itself: it is never braked.
 */
export function loopChecked(input: NewRun): boolean {
  return input.eventType === 'contact.updated' && !input.replay && canLoop(input.rule);
}

/** Whether the rule limits how often it fires (once, cooldown, at-most): a claim per run, in order. */
export function hasEnrollmentGate(input: NewRun): boolean {
  const { once, cooldownMs, atMost } = input.rule;
  return atMost !== undefined || once === 'per-contact' || !!cooldownMs;
}

/** Admission after loop protection: once / cooldown / at-most claims (none: the run may act). */
export async function enrollmentAdmission(
  tx: EntityManager,
  input: NewRun,
  runId: string,
): Promise<{ status: RunStatus; reason: string | null }> {
  const enrollments = new EnrollmentsRepository(tx);
  const { once, cooldownMs, atMost } = input.rule;
  if (atMost !== undefined && once !== 'per-contact') {
    const claim = await enrollments.claimUpTo(input.rule.id, input.contactId, runId, atMost, cooldownMs);
    return claim === true
      ? { status: 'pending', reason: null }
      : { status: 'suppressed', reason: claim === 'at_most' ? 'at_most_per_contact' : 'cooldown' };
  }
  if (once === 'per-contact') {
    return (await enrollments.claimOnce(input.rule.id, input.contactId, runId))
      ? { status: 'pending', reason: null }
      : { status: 'suppressed', reason: 'once_per_contact' };
  }
  if (cooldownMs) {
    return (await enrollments.claimCooldown(input.rule.id, input.contactId, runId, cooldownMs))
      ? { status: 'pending', reason: null }
      : { status: 'suppressed', reason: 'cooldown' };
  }
  return { status: 'pending', reason: null };
}
