// The ledger write of events with at least one matched run (or an outcome to note), for a batch of
// events in one transaction. The per-event path (recordMatchedEvent: createRun for each matched run)
// is the reference; the batch path (recordMatchedEvents) writes the same rows with set-based
// statements, about seven round trips per batch instead of about nine per event: what bounds the
// events worker (docs/BENCHMARKS.md, throughput). Anything unusual keeps a per-run statement.
import { OWN_WRITE_LOOP, OWN_WRITE_LOOP_WINDOW_MS } from './loop-brake';
import type { EntityManager } from 'typeorm';
import type { Queryable } from '../../persistence/sql/queryable';
import type { TimingPlan } from '../../language/rules/gates/run-gates';
import { ledgerId } from '../../persistence/partitions/ledger-id';
import {
  ActionResultsRepository,
  ruleContactKey,
  type NewActionRows,
  type RuleContact,
} from '../../persistence/ledger/action-results.repository';
import type { RunInsert } from '../../persistence/ledger/run-rows';
import {
  createRun,
  unmatchedDecision,
  enrollmentAdmission,
  hasEnrollmentGate,
  loopChecked,
  runInsert,
  timingOf,
  type NewRun,
  type PendingRun,
  type SettledAction,
  type SettleHook,
} from './create-run';
import type { InboxOutcome, UnmatchedDecision } from '../../persistence/ledger/inbox-event.entity';
import { InboxEventsRepository } from '../../persistence/ledger/inbox-events.repository';
import type { RunStatus } from '../../persistence/ledger/run.entity';
import { RunsRepository } from '../../persistence/ledger/runs.repository';

/** An event to record: its runs (matched or not, in rule order) and how its processing ended. */
export interface MatchedEvent {
  inboxEventId: string;
  runs: NewRun[];
  outcome: InboxOutcome | null;
  note: string | null;
}

/** A matched run as admission left it, before settlement. */
export interface AdmittedRun {
  run: NewRun;
  status: RunStatus;
  timing: TimingPlan | undefined;
}

/**
 * The settlement of a batch's matched runs, in batch order (src/pipeline/admission/settle-in-transaction.ts):
 * each run's skips when it is settled, undefined when it is left to the runner.
 */
export type BatchSettleHook = (
  tx: Queryable,
  runs: readonly AdmittedRun[],
) => Promise<(SettledAction[] | undefined)[]>;

/**
 * The per-event path, as the events worker wrote every such event before batches: claim, the
 * not-matched runs in one insert, createRun for each matched run, the outcome. A failed batch is
 * written again event by event through it. Returns `created[i]` for `event.runs[i]`, null when the
 * event was no longer pending (nothing written).
 */
export async function recordMatchedEvent(
  tx: EntityManager,
  event: MatchedEvent,
  settle: SettleHook,
): Promise<PendingRun[] | null> {
  // Claim first (lock + processed mark, with the decision of the rules that did not match: no runs).
  const inbox = new InboxEventsRepository(tx);
  if (!(await inbox.claimUnmatched(new Map([[event.inboxEventId, decisionOf(event)]]))).size) return null;
  const created: PendingRun[] = [];
  for (const run of event.runs)
    created.push(run.evaluation.matched ? await createRun(tx, run, settle) : notMatched(run));
  await markOutcome(tx, event);
  return created;
}

/**
 * Several events in one transaction, the same rows as recordMatchedEvent writes for each in turn:
 * one claim with the not-matched runs (events not claimed write nothing), ONE loop-protection
 * lookup, enrollment claims per run in batch order (order-sensitive, rare), ONE settlement read,
 * ONE insert of the matched runs and ONE of their action rows, then the rare outcome marks.
 */
export async function recordMatchedEvents(
  tx: EntityManager,
  events: readonly MatchedEvent[],
  settle: BatchSettleHook,
): Promise<(PendingRun[] | null)[]> {
  // The rules that did not match leave no runs: the claim keeps their decision on the event's row.
  const claimed = await new InboxEventsRepository(tx).claimUnmatched(decisionsOf(events));
  // A second copy of an event in the same batch (two jobs of it) finds it claimed, as it would
  // behind the first copy's lock: nothing written for it.
  const first = firstCopies(events);
  const mine = events.map((e, i) => first[i] && claimed.has(e.inboxEventId));
  // Batch order: the events in the order they were handed over, each event's runs in rule order.
  const matched = events.filter((_, i) => mine[i]).flatMap(matchedRunsOf);
  const held = await new ActionResultsRepository(tx).recentSuccesses(
    loopPairs(matched),
    OWN_WRITE_LOOP_WINDOW_MS,
  );
  const admitted: Admission[] = [];
  for (const run of matched) {
    const id = ledgerId(run.triggerAt);
    admitted.push(admitHeld(run, id, held) ?? { id, ...(await enrollmentAdmission(tx, run, id)) });
  }
  const settled = await settle(tx, admittedRuns(matched, admitted));
  const { rows, actions } = writesOf(matched, admitted, settled);
  const inserted = await new RunsRepository(tx).insertMany(rows);
  // Action rows for the admitted runs actually written (a trigger seen before writes nothing).
  await new ActionResultsRepository(tx).insertForRuns(actions.filter((a) => inserted.has(a.runId)));
  for (const event of events.filter((_, i) => mine[i])) await markOutcome(tx, event);
  return createdOf(events, mine, { matched, rows, inserted, settled });
}

/** Whether a run was admitted (id, status, and why not pending). */
export interface Admission {
  id: string;
  status: RunStatus;
  reason: string | null;
}

/** The matched runs of an event, in rule order. */
export function matchedRunsOf(event: MatchedEvent): NewRun[] {
  return event.runs.filter((r) => r.evaluation.matched);
}

/** The (rule, contact) pairs loop protection looks up for these runs, in ONE lookup. */
export function loopPairs(matched: readonly NewRun[]): RuleContact[] {
  return matched
    .filter((run) => !run.paused && loopChecked(run))
    .map((run) => ({ ruleId: run.rule.id, contactId: run.contactId }));
}

/**
 * Admission of a matched run, as createRun makes it: paused first (no statement), then loop
 * protection from the batch's one lookup (`held`: no run of the batch can add a succeeded action
 * row, since settled and shadow rows are skips, so one lookup sees what per-run lookups would).
 * Undefined for a run whose rule has an enrollment gate (once / cooldown / at-most): its claim is
 * a statement of the events transaction, per run, in batch order.
 */
export function admitHeld(run: NewRun, id: string, held: ReadonlySet<string>): Admission | undefined {
  if (run.paused) return { id, status: 'suppressed', reason: 'paused' };
  if (loopChecked(run) && held.has(ruleContactKey({ ruleId: run.rule.id, contactId: run.contactId })))
    return { id, ...OWN_WRITE_LOOP };
  if (hasEnrollmentGate(run)) return undefined;
  return { id, status: 'pending', reason: null };
}

/** What settlement decides for: each admitted run with its status and timing. */
export function admittedRuns(matched: readonly NewRun[], admitted: readonly Admission[]): AdmittedRun[] {
  return admitted.map((a, i) => ({ run: matched[i], status: a.status, timing: timingOf(matched[i]) }));
}

/** The run rows to insert and the action rows of those left to act (or settled, or shadow). */
export function writesOf(
  matched: readonly NewRun[],
  admitted: readonly Admission[],
  settled: readonly (SettledAction[] | undefined)[],
): { rows: RunInsert[]; actions: NewActionRows[] } {
  const rows = admitted.map((a, i) => {
    const shadow = matched[i].evaluation.mode === 'shadow';
    const final: RunStatus = a.status === 'pending' && (shadow || settled[i]) ? 'succeeded' : a.status;
    return runInsert(matched[i], a.id, final, a.reason);
  });
  const actions = admitted.flatMap((a, i): NewActionRows[] =>
    a.status === 'pending'
      ? [
          {
            runId: a.id,
            triggerAt: matched[i].triggerAt,
            actions: matched[i].evaluation.actions,
            how: matched[i].evaluation.mode === 'shadow' ? 'shadow' : (settled[i] ?? 'pending'),
          },
        ]
      : [],
  );
  return { rows, actions };
}

/**
 * `created[i]` for each event's runs (null for an event not written: not claimed, or a second
 * copy): a run not inserted was seen before (suppressed); a rule that did not match has no run.
 */
export function createdOf(
  events: readonly MatchedEvent[],
  mine: readonly boolean[],
  written: {
    matched: readonly NewRun[];
    rows: readonly RunInsert[];
    inserted: ReadonlySet<string>;
    settled: readonly (SettledAction[] | undefined)[];
  },
): (PendingRun[] | null)[] {
  const { matched, rows, inserted, settled } = written;
  const created = new Map<NewRun, PendingRun>();
  for (const run of events.filter((_, i) => mine[i]).flatMap((e) => e.runs))
    if (!run.evaluation.matched) created.set(run, notMatched(run));
  rows.forEach((row, i) => {
    const run = { id: row.id, contactId: row.contactId, priority: row.priority };
    created.set(
      matched[i],
      !inserted.has(row.id)
        ? { ...run, status: 'suppressed' } // same trigger seen before
        : {
            ...run,
            status: row.status,
            ...(settled[i] ? { settled: settled[i] } : {}),
            ...(row.reason ? { reason: row.reason } : {}),
          },
    );
  });
  return events.map((e, i) => (mine[i] ? e.runs.map((run) => created.get(run)!) : null));
}

/** The claim's decisions: per event, that of its rules that did not match (null: all matched). */
export function decisionsOf(events: readonly MatchedEvent[]): Map<string, UnmatchedDecision | null> {
  return new Map(events.map((e) => [e.inboxEventId, decisionOf(e)]));
}

/** Per event, whether it is the first copy of its event in the batch (two jobs of one event). */
export function firstCopies(events: readonly MatchedEvent[]): boolean[] {
  return events.map((e, i) => events.findIndex((o) => o.inboxEventId === e.inboxEventId) === i);
}

/** The claim marked it processed; an outcome or a note (mirror skipped) is one more statement, rarely. */
async function markOutcome(tx: EntityManager, event: MatchedEvent): Promise<void> {
  if (event.outcome || event.note)
    await new InboxEventsRepository(tx).markProcessed(event.inboxEventId, event.outcome, event.note);
}

/** The decision of an event's rules that did not match (null when every listening rule matched). */
function decisionOf(event: MatchedEvent): UnmatchedDecision | null {
  const unmatched = event.runs.filter((r) => !r.evaluation.matched);
  return unmatched.length ? unmatchedDecision(unmatched) : null;
}

/**
 * A rule that did not match: no run row (its decision is on the event), so no id; counted as
 * `not_matched` in the metrics and never dispatched.
 */
function notMatched(run: NewRun): PendingRun {
  return { id: '', contactId: run.contactId, priority: run.priority, status: 'not_matched' };
}
