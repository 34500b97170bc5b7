import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { EVENTS_QUEUE, EventJobData } from '../queues/queues';
import { FAST_RECOVERY } from '../queues/worker-options';
import { EventFailuresService } from './event-failures.service';
import { EventMatchingService } from './event-matching.service';

// 32 events at once: the no-match ledger writes of concurrent jobs share a transaction (bigger
// batches), and up to 8 of the slots may be executing an event's runs inline (RunDispatchService).
@Processor(EVENTS_QUEUE, { concurrency: 32, ...FAST_RECOVERY })
export class EventsProcessor extends WorkerHost {
  private readonly logger = new Logger(EventsProcessor.name);

  constructor(
    private readonly matching: EventMatchingService,
    private readonly failures: EventFailuresService,
  ) {
    super();
  }

  async process(job: Job<EventJobData>): Promise<void> {
    try {
      await this.matching.process(job.data.inboxEventId, job.data.correlationId);
    } catch (err) {
      // Counted in the ledger; rethrown (BullMQ retries with backoff) until the event ends failed.
      await this.failures.onFailedAttempt(job.data.inboxEventId, err);
    }
  }

  // A worker without an 'error' listener crashes on Redis hiccups (e.g. a flushed job key);
  // the ledger in Postgres and the reconciler recover the work, so logging is enough.
  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.warn(`worker error: ${err.message}`);
  }
}
