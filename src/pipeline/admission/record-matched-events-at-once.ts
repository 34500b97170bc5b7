// The ledger write of a small batch of matched events in two round trips instead of a transaction
// of seven (BEGIN, claim, loop lookup, settlement read, runs, action rows, COMMIT): ONE statement
// that reads what loop protection and settlement need, then ONE that claims the events and inserts
// their runs and action rows (MatchedEventWrites). It writes the same rows as recordMatchedEvents,
// which stays the path of a batch this one does not take (writableAtOnce): a large one, one with an
// enrollment gate (its claims are statements of a transaction, per run, in order) or an outcome to
// note (one more statement).
import type { Queryable } from '../../persistence/sql/queryable';
import { ledgerId } from '../../persistence/partitions/ledger-id';
import { MatchedEventWrites } from '../../persistence/ledger/matched-event-writes.repository';
import { SettlementStateRepository } from '../../persistence/ledger/settlement-state.repository';
import { OWN_WRITE_LOOP_WINDOW_MS } from './loop-brake';
import { hasEnrollmentGate, type NewRun, type PendingRun } from './create-run';
import {
  admitHeld,
  admittedRuns,
  createdOf,
  decisionsOf,
  firstCopies,
  loopPairs,
  matchedRunsOf,
  writesOf,
  type Admission,
  type MatchedEvent,
} from './record-matched-events';
import { settleFromStates, settlementReadOf } from './settle-in-transaction';

/** The settlement's decision from its read. */
export type SettleFromStates = ReturnType<typeof settleFromStates>;

/**
 * Events per batch up to which the two round trips are taken. Past it the load is high enough that
 * the transaction's longer write pays: while it is in flight the next batch grows, and fewer, larger
 * batches cost Postgres less per event (bench:throughput's guarded mode, docs/BENCHMARKS.md "Round 4,
 * session 9"). Latency is what the small batches of a quiet engine need.
 */
export const AT_ONCE_MAX_EVENTS = 8;

/** Whether recordMatchedEventsAtOnce takes this batch (else: recordMatchedEvents in a transaction). */
export function writableAtOnce(events: readonly MatchedEvent[]): boolean {
  if (events.length > AT_ONCE_MAX_EVENTS) return false;
  return events.every(
    (e) => !e.outcome && !e.note && !e.runs.some((r) => r.evaluation.matched && hasEnrollmentGate(r)),
  );
}

/**
 * `db`: the pool (each read and the write commit by themselves). Returns `created[i]` for
 * `events[i].runs`, null for an event not written (claimed by another job, or a second copy).
 *
 * The reads come before the claim instead of after it, each its own snapshot under READ COMMITTED
 * as in the transaction: what a concurrent transaction commits between a read and the write is
 * ordered after this batch either way (settlement-state.repository.ts says why that is sound).
 * They are made for every first copy of an event; one another job claims first writes nothing.
 */
export async function recordMatchedEventsAtOnce(
  db: Queryable,
  events: readonly MatchedEvent[],
  settle: SettleFromStates,
): Promise<(PendingRun[] | null)[]> {
  const first = firstCopies(events);
  // Batch order: the events in the order they were handed over, each event's runs in rule order.
  const matched = events.filter((_, i) => first[i]).flatMap(matchedRunsOf);
  const ids = matched.map((run) => ledgerId(run.triggerAt));
  // What settlement reads if every run is admitted: a run loop protection holds back only reads
  // its contact for nothing.
  const read = settlementReadOf(
    admittedRuns(
      matched,
      matched.map((run, i) => admitUngated(run, ids[i], new Set())),
    ),
  );
  const { held, states } = await new SettlementStateRepository(db).readWithRecentSuccesses(
    loopPairs(matched),
    OWN_WRITE_LOOP_WINDOW_MS,
    read?.contactIds ?? [],
    read?.eventIds ?? [],
  );
  const admitted = matched.map((run, i) => admitUngated(run, ids[i], held));
  const settled = await settle(admittedRuns(matched, admitted), read ? states : undefined);
  const { rows, actions } = writesOf(matched, admitted, settled);
  const { claimed, inserted } = await new MatchedEventWrites(db).write(decisionsOf(events), rows, actions);
  const mine = events.map((e, i) => first[i] && claimed.has(e.inboxEventId));
  return createdOf(events, mine, { matched, rows, inserted, settled });
}

/** admitHeld for a batch writableAtOnce took: no run has an enrollment gate to claim. */
function admitUngated(run: NewRun, id: string, held: ReadonlySet<string>): Admission {
  const admission = admitHeld(run, id, held);
  if (!admission) throw new Error(`rule ${run.rule.id} has an enrollment gate: not a batch to write at once`);
  return admission;
}
