import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { PARTITIONS_JOB, RETENTION_QUEUE } from './retention';
import { RetentionService } from './retention.service';

/** Runs the daily prune (and a start's partition creation); BullMQ hands each job to one worker. */
@Processor(RETENTION_QUEUE)
export class RetentionProcessor extends WorkerHost {
  constructor(private readonly retention: RetentionService) {
    super();
  }

  async process(job: Job): Promise<unknown> {
    if (job.name === PARTITIONS_JOB) return this.retention.createPartitionsAhead();
    return this.retention.prune();
  }
}
