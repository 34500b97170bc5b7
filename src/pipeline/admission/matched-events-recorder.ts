import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { settleBatchInTransaction, settleFromStates, settleInTransaction } from './settle-in-transaction';
import { recordMatchedEventsAtOnce, writableAtOnce } from './record-matched-events-at-once';
import { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import { MicroBatcher } from '../../persistence/sql/micro-batcher';
import type { PendingRun } from './create-run';
import { recordMatchedEvent, recordMatchedEvents, type MatchedEvent } from './record-matched-events';

/**
 * The ledger write of events with a matched run (or an outcome to note), coalesced across the
 * events jobs this process runs at once, like UnmatchedEventsRecorder: the events that reach it in
 * one event-loop turn, or while the previous batch commits, are written together with set-based
 * statements instead of a transaction of about nine round trips each: a small batch in two round
 * trips (record-matched-events-at-once.ts); a large one, or one with an enrollment gate or an
 * outcome to note, in one transaction (record-matched-events.ts). A batch that fails
 * (a value Postgres refuses, a deadlock, a serialization failure) is written again event by event
 * through the per-event path, each in its own transaction, so a failure stays the event's own
 * (its job retries, then ends `failed`) and nothing is lost or written twice (the batch rolled back).
 */
@Injectable()
export class MatchedEventsRecorder {
  private readonly batcher: MicroBatcher<MatchedEvent, PendingRun[] | null>;

  constructor(dataSource: DataSource, directory: CrmDirectory) {
    // Built once: the hooks hold the directory (its cache is what they resolve names from).
    const settleBatch = settleBatchInTransaction(directory);
    const settleAtOnce = settleFromStates(directory);
    const settleOne = settleInTransaction(directory);
    this.batcher = new MicroBatcher(
      (events) =>
        writableAtOnce(events)
          ? recordMatchedEventsAtOnce(dataSource, events, settleAtOnce)
          : dataSource.transaction((tx) => recordMatchedEvents(tx, events, settleBatch)),
      { writeOne: (event) => dataSource.transaction((tx) => recordMatchedEvent(tx, event, settleOne)) },
    );
  }

  /** `created[i]` is the event's `runs[i]` as written; null when it was no longer pending (nothing written). */
  record(event: MatchedEvent): Promise<PendingRun[] | null> {
    return this.batcher.submit(event);
  }
}
