import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MicroBatcher } from '../../persistence/sql/micro-batcher';
import { recordUnmatchedEvents, type PendingRun, type UnmatchedEvent } from './create-run';

/**
 * The ledger write of events no rule matched (the bulk of the traffic), coalesced across the events
 * jobs this process runs at once: the events that reach it in one event-loop turn, or while the
 * previous batch commits, are claimed and get their runs in one statement instead of a transaction
 * each. A batch that fails is written again event by event, so one
 * event's failure stays its own (its job retries, then ends `failed`).
 */
@Injectable()
export class UnmatchedEventsRecorder {
  private readonly batcher: MicroBatcher<UnmatchedEvent, PendingRun[] | null>;

  constructor(dataSource: DataSource) {
    this.batcher = new MicroBatcher((events) => recordUnmatchedEvents(dataSource, events));
  }

  /** The event's runs as written; null when the event was no longer pending (nothing written). */
  record(event: UnmatchedEvent): Promise<PendingRun[] | null> {
    return this.batcher.submit(event);
  }
}
