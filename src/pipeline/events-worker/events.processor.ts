import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { EventsQueue } from '../../runtime/queues/events-queue.service';
import {
  EVENTS_BATCH_JOB,
  EVENTS_QUEUE,
  EventJobData,
  EventsBatchJobData,
} from '../../runtime/queues/queue-jobs';
import { FAST_RECOVERY } from '../../runtime/queues/worker-options';
import { contactLanes, workLanes } from './event-batch-lanes';
import { EventFailuresService } from './event-failures.service';
import { EventPipeline } from './event-pipeline.service';

/** Contacts of one batch job worked at once: bounds what a single job holds in memory and in the pool. */
const LANES_PER_BATCH_JOB = 64;
/** A batch's failed event gets its own job after this long (then its own job's backoff). */
const RETRY_DELAY_MS = 500;

// 32 jobs at once: the no-match ledger writes of concurrent jobs share a transaction (bigger
// batches), and up to 8 of the slots may be executing an event's runs inline (RunDispatchService).
@Processor(EVENTS_QUEUE, { concurrency: 32, ...FAST_RECOVERY })
export class EventsProcessor extends WorkerHost {
  private readonly logger = new Logger(EventsProcessor.name);

  constructor(
    private readonly pipeline: EventPipeline,
    private readonly failures: EventFailuresService,
    private readonly events: EventsQueue,
  ) {
    super();
  }

  async process(job: Job<EventJobData | EventsBatchJobData>): Promise<void> {
    if (job.name === EVENTS_BATCH_JOB) return this.processBatch(job.data as EventsBatchJobData);
    const { inboxEventId, correlationId } = job.data as EventJobData;
    try {
      await this.pipeline.processById(inboxEventId, correlationId);
    } catch (err) {
      // Counted in the ledger; rethrown (BullMQ retries with backoff) until the event ends failed.
      await this.failures.onFailedAttempt(inboxEventId, err);
    }
  }

  /**
   * An intake batch: one read for its rows, then each event as its own job would process it. An
   * event that fails does not fail its neighbours: its attempt is counted, and a retry goes to a
   * job of its own (the single-event path, with its backoff). Only when that hand-over cannot be
   * made (Redis down) does the batch job fail, to be retried whole: processed events are skipped.
   */
  private async processBatch({ inboxEventIds, correlationIds }: EventsBatchJobData): Promise<void> {
    const rows = await this.pipeline.rowsOf(inboxEventIds);
    const lanes = contactLanes(inboxEventIds, correlationIds, rows);
    let handOverError: unknown;
    await workLanes(lanes, LANES_PER_BATCH_JOB, async ({ row, correlationId }) => {
      try {
        await this.pipeline.process(row, correlationId);
      } catch (err) {
        try {
          await this.failures.onFailedAttempt(row.id, err);
        } catch {
          await this.events
            .add(row.id, correlationId, RETRY_DELAY_MS)
            .catch((addErr: unknown) => (handOverError ??= addErr));
        }
      }
    });
    if (handOverError) throw handOverError;
  }

  // A worker without an 'error' listener crashes on Redis hiccups (e.g. a flushed job key);
  // the ledger in Postgres and the reconciler recover the work, so logging is enough.
  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.warn(`worker error: ${err.message}`);
  }
}
