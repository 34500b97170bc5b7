import { Processor, WorkerHost } from '@nestjs/bullmq';
import { RETENTION_QUEUE } from './retention';
import { RetentionService } from './retention.service';

/** Runs the daily prune; BullMQ hands each tick to exactly one worker. */
@Processor(RETENTION_QUEUE)
export class RetentionProcessor extends WorkerHost {
  constructor(private readonly retention: RetentionService) {
    super();
  }

  async process(): Promise<unknown> {
    return this.retention.prune();
  }
}
