import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { isAlive } from './job-state';
import {
  EVENT_JOB,
  EVENTS_BATCH_JOB,
  EVENTS_QUEUE,
  EventJobData,
  EventsBatchJobData,
  eventJobId,
  eventsBatchJobId,
} from './queue-jobs';

/** A pending event as the reconciler sees it: its id and the intake batch that stored it. */
export interface PendingEventRef {
  id: string;
  batchKey: string | null;
}

/** The one place that adds jobs to the events queue: job ids and options are decided here. */
@Injectable()
export class EventsQueue {
  constructor(@InjectQueue(EVENTS_QUEUE) private readonly queue: Queue<EventJobData | EventsBatchJobData>) {}

  /** One event's job; `delay` for a retry handed over by a batch job (its backoff). */
  async add(inboxEventId: string, correlationId: string = randomUUID(), delay?: number): Promise<void> {
    await this.queue.add(EVENT_JOB, { inboxEventId, correlationId }, this.options(inboxEventId, delay));
  }

  /**
   * The intake's group commit: one job for all its events (one Redis round trip here, one fetch
   * and finish in the worker), named after the key stored with the rows. A lone event keeps its
   * own job id (nothing to share, and it is what a single redelivery or a replay gets too).
   */
  async addIntakeBatch(inboxEventIds: readonly string[], batchKey: string): Promise<void> {
    if (inboxEventIds.length === 0) return;
    if (inboxEventIds.length === 1) return this.add(inboxEventIds[0]);
    const data: EventsBatchJobData = {
      inboxEventIds: [...inboxEventIds],
      correlationIds: inboxEventIds.map(() => randomUUID()),
    };
    await this.queue.add(EVENTS_BATCH_JOB, data, { jobId: eventsBatchJobId(batchKey) });
  }

  /** Adds the event's job unless one is alive; true when it was added (operators' retries). */
  async ensure(inboxEventId: string): Promise<boolean> {
    return (await this.ensureMany([{ id: inboxEventId, batchKey: null }])) === 1;
  }

  /**
   * The reconciler's re-add: a job for every event no live job carries (its own, or its intake
   * batch's, looked up once per batch). Returns how many were added.
   */
  async ensureMany(events: readonly PendingEventRef[]): Promise<number> {
    const batchAlive = new Map<string, boolean>();
    let added = 0;
    for (const { id, batchKey } of events) {
      if (batchKey && !batchAlive.has(batchKey))
        batchAlive.set(batchKey, await isAlive(this.queue, eventsBatchJobId(batchKey)));
      if (batchKey && batchAlive.get(batchKey)) continue;
      if (await isAlive(this.queue, eventJobId(id))) continue;
      await this.add(id);
      added++;
    }
    return added;
  }

  private options(inboxEventId: string, delay?: number) {
    return { jobId: eventJobId(inboxEventId), ...(delay ? { delay } : {}) };
  }
}
