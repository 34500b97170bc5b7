import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MicroBatcher } from '../../persistence/sql/micro-batcher';
import { recordUnmatchedEvents, type UnmatchedEvent } from './create-run';

/**
 * The ledger write of events no rule matched (the bulk of the traffic), coalesced across the events
 * jobs this process runs at once: the events that reach it in one event-loop turn, or while the
 * previous batch commits, are claimed with their decisions in one statement instead of a
 * transaction each (no runs rows: create-run.ts, recordUnmatchedEvents). A batch that fails is written again event by event, so one
 * event's failure stays its own (its job retries, then ends `failed`).
 */
@Injectable()
export class UnmatchedEventsRecorder {
  private readonly batcher: MicroBatcher<UnmatchedEvent, boolean>;

  constructor(dataSource: DataSource) {
    this.batcher = new MicroBatcher((events) => recordUnmatchedEvents(dataSource, events));
  }

  /** True when the event was claimed with its decision; false when it was no longer pending. */
  record(event: UnmatchedEvent): Promise<boolean> {
    return this.batcher.submit(event);
  }
}
