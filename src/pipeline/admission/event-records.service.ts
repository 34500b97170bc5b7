// The events worker's one door to the ledger (pipeline/events-worker; matching decides and never
// writes: matching-never-writes in .dependency-cruiser.cjs): it reads here the stored events and the
// runs it needs (an event's unfinished runs, the reconciler's stale work), and hands admission,
// which records what the event path decides, the ends of an event that leave no run: processed with
// an outcome (no rule listens, the contact is gone), a failed attempt, failed for good. Runs are
// written by the recorders next to this file.
import { Injectable } from '@nestjs/common';
import type { InboxOutcome } from '../../persistence/ledger/inbox-event.entity';
import {
  type InboxEventRow,
  InboxEventsRepository,
  REPLAY_KEY_PREFIX,
} from '../../persistence/ledger/inbox-events.repository';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import type { QueueableRun } from '../../persistence/ledger/run-rows';

/** An operator's replay (POST /admin/events/:id/replay): it skips the mirror and loop protection. */
export const isOperatorReplay = (row: Pick<InboxEventRow, 'event_key'>): boolean =>
  row.event_key.startsWith(REPLAY_KEY_PREFIX);

@Injectable()
export class EventRecords {
  constructor(
    private readonly inbox: InboxEventsRepository,
    private readonly runs: RunsRepository,
  ) {}

  /** One stored event (undefined once retention pruned it). */
  find(inboxEventId: string): Promise<InboxEventRow | undefined> {
    return this.inbox.find(inboxEventId);
  }

  /** The stored rows of an intake batch's events, in one read (a row may be gone: retention). */
  findMany(inboxEventIds: readonly string[]): Promise<InboxEventRow[]> {
    return this.inbox.findMany(inboxEventIds);
  }

  /** The runs of a trigger not finished yet (a worker died after the event was recorded). */
  unfinishedRunsOf(triggerKey: string): Promise<QueueableRun[]> {
    return this.runs.unfinishedOfTrigger(triggerKey);
  }

  /** Pending events no job has moved for this long: the reconciler enqueues them again. */
  stalePendingEvents(
    staleAfterMs: number,
    limit: number,
  ): Promise<{ id: string; batchKey: string | null }[]> {
    return this.inbox.stalePending(staleAfterMs, limit);
  }

  /**
   * Unfinished runs no job has moved for this long, and waiting runs overdue at `engineNow`: the
   * reconciler enqueues them again.
   */
  staleRuns(staleAfterMs: number, limit: number, engineNow: Date): Promise<QueueableRun[]> {
    return this.runs.stale(staleAfterMs, limit, engineNow);
  }

  /**
   * An event that leaves no run: processed, with the outcome and note worth telling, and its
   * payload kept packed (no run will read it in SQL; src/persistence/ledger/packed-payload.ts).
   */
  endWithoutRuns(
    event: Pick<InboxEventRow, 'id' | 'payload'>,
    outcome: InboxOutcome | null = null,
    note: string | null = null,
  ) {
    return this.inbox.markProcessed(event.id, outcome, note, { payload: event.payload });
  }

  /** Counts a failed attempt and keeps its error; the attempts so far, or undefined if no longer pending. */
  recordFailedAttempt(inboxEventId: string, error: string): Promise<number | undefined> {
    return this.inbox.recordFailedAttempt(inboxEventId, error);
  }

  /** Ends a pending event `failed`; false when it was no longer pending. */
  markFailed(inboxEventId: string): Promise<boolean> {
    return this.inbox.markFailed(inboxEventId);
  }
}
