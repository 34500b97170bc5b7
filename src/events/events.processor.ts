import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { EVENTS_QUEUE, EventJobData } from '../queues/queues';
import { EventMatchingService } from './event-matching.service';

@Processor(EVENTS_QUEUE, { concurrency: 16 })
export class EventsProcessor extends WorkerHost {
  constructor(private readonly matching: EventMatchingService) {
    super();
  }

  async process(job: Job<EventJobData>): Promise<void> {
    await this.matching.process(job.data.inboxEventId, job.data.correlationId);
  }
}
