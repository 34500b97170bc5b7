// The ledger write of events with at least one matched run (or an outcome to note), for a batch of
// events in one transaction. The per-event path (recordMatchedEvent: createRun for each matched run)
// is the reference; the batch path (recordMatchedEvents) writes the same rows with set-based
// statements, about seven round trips per batch instead of about nine per event: what bounds the
// events worker (docs/BENCHMARKS.md, throughput). Anything unusual keeps a per-run statement.
import { OWN_WRITE_LOOP, OWN_WRITE_LOOP_WINDOW_MS } from './loop-brake';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Queryable } from '../../persistence/sql/queryable';
import type { TimingPlan } from '../../language/rules/gates/run-gates';
import { ActionResultsRepository, ruleContactKey } from '../../persistence/ledger/action-results.repository';
import {
  createRun,
  createUnmatchedRuns,
  enrollmentAdmission,
  hasEnrollmentGate,
  loopChecked,
  pendingRunsOf,
  runInsert,
  timingOf,
  unmatchedRunRows,
  type NewRun,
  type PendingRun,
  type SettledAction,
  type SettleHook,
} from './create-run';
import type { InboxOutcome } from '../../persistence/ledger/inbox-event.entity';
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
  // Claim first (lock + processed mark in one statement); the not-matched runs go in one more.
  if (!(await new InboxEventsRepository(tx).claimPending(event.inboxEventId))) return null;
  const unmatched = event.runs.filter((r) => !r.evaluation.matched);
  const matched = event.runs.filter((r) => r.evaluation.matched);
  const created = await createUnmatchedRuns(tx, unmatched);
  for (const run of matched) created.push(await createRun(tx, run, settle));
  await markOutcome(tx, event);
  const byRun = new Map([...unmatched, ...matched].map((run, i) => [run, created[i]]));
  return event.runs.map((run) => byRun.get(run)!);
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
  const unmatched = events.flatMap((e) => e.runs.filter((r) => !r.evaluation.matched));
  const unmatchedRows = unmatchedRunRows(unmatched);
  const claim = new InboxEventsRepository(tx).claimManyPendingStatement(
    events.map((e) => e.inboxEventId),
    2,
  );
  const runs = new RunsRepository(tx);
  const { claimed, inserted: unmatchedInserted } = await runs.insertManyOfClaimed(unmatchedRows, claim);
  // A second copy of an event in the same batch (two jobs of it) finds it claimed, as it would
  // behind the first copy's lock: nothing written for it.
  const mine = events.map((e, i) => claimed.has(e.inboxEventId) && firstIndexOf(events, e) === i);
  const ofClaimed = events.filter((_, i) => mine[i]);
  // Batch order: the events in the order they were handed over, each event's runs in rule order.
  const matched = ofClaimed.flatMap((e) => e.runs.filter((r) => r.evaluation.matched));
  const admitted = await admitAll(tx, matched);
  const settled = await settle(
    tx,
    admitted.map((a, i) => ({ run: matched[i], status: a.status, timing: timingOf(matched[i]) })),
  );
  const rows = admitted.map((a, i) => {
    const shadow = matched[i].evaluation.mode === 'shadow';
    const final: RunStatus = a.status === 'pending' && (shadow || settled[i]) ? 'succeeded' : a.status;
    return runInsert(matched[i], a.id, final, a.reason);
  });
  const inserted = await runs.insertMany(rows);
  // Action rows for the admitted runs actually written (a trigger seen before writes nothing).
  await new ActionResultsRepository(tx).insertForRuns(
    admitted.flatMap((a, i) =>
      a.status === 'pending' && inserted.has(a.id)
        ? [
            {
              runId: a.id,
              actions: matched[i].evaluation.actions,
              how: matched[i].evaluation.mode === 'shadow' ? ('shadow' as const) : (settled[i] ?? 'pending'),
            },
          ]
        : [],
    ),
  );
  for (const event of ofClaimed) await markOutcome(tx, event);
  const createdOf = new Map<NewRun, PendingRun>();
  pendingRunsOf(unmatchedRows, unmatchedInserted).forEach((run, i) => createdOf.set(unmatched[i], run));
  rows.forEach((row, i) => {
    const run = { id: row.id, contactId: row.contactId, priority: row.priority };
    createdOf.set(
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
  return events.map((e, i) => (mine[i] ? e.runs.map((run) => createdOf.get(run)!) : null));
}

/**
 * Admission of each matched run, in batch order: paused first (no statement), then loop
 * protection for every checked pair in ONE lookup (no run of the batch can add a succeeded action
 * row: settled and shadow rows are skips, so one lookup sees what per-run lookups would), then
 * once / cooldown / at-most claims per run, as createRun makes them.
 */
async function admitAll(
  tx: EntityManager,
  matched: readonly NewRun[],
): Promise<{ id: string; status: RunStatus; reason: string | null }[]> {
  const checked = matched.filter((run) => !run.paused && loopChecked(run));
  const held = await new ActionResultsRepository(tx).recentSuccesses(
    checked.map((run) => ({ ruleId: run.rule.id, contactId: run.contactId })),
    OWN_WRITE_LOOP_WINDOW_MS,
  );
  const admitted: { id: string; status: RunStatus; reason: string | null }[] = [];
  for (const run of matched) {
    const id = randomUUID();
    if (run.paused) admitted.push({ id, status: 'suppressed', reason: 'paused' });
    else if (loopChecked(run) && held.has(ruleContactKey({ ruleId: run.rule.id, contactId: run.contactId })))
      admitted.push({ id, ...OWN_WRITE_LOOP });
    else if (hasEnrollmentGate(run)) admitted.push({ id, ...(await enrollmentAdmission(tx, run, id)) });
    else admitted.push({ id, status: 'pending', reason: null });
  }
  return admitted;
}

function firstIndexOf(events: readonly MatchedEvent[], event: MatchedEvent): number {
  return events.findIndex((e) => e.inboxEventId === event.inboxEventId);
}

/** The claim marked it processed; an outcome or a note (mirror skipped) is one more statement, rarely. */
async function markOutcome(tx: EntityManager, event: MatchedEvent): Promise<void> {
  if (event.outcome || event.note)
    await new InboxEventsRepository(tx).markProcessed(event.inboxEventId, event.outcome, event.note);
}
