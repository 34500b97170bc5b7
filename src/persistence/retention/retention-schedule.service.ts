import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { PARTITIONS_JOB, RETENTION_CRON, RETENTION_QUEUE, RETENTION_SCHEDULER_ID } from './retention';

/**
 * The one place that puts jobs on the retention queue: a BullMQ job scheduler (repeatable job)
 * with a fixed id, so every scheduler process upserts the same one and each tick runs once; and at
 * start, the partitioned tables' days ahead.
 */
@Injectable()
export class RetentionSchedule implements OnApplicationBootstrap {
  private readonly logger = new Logger(RetentionSchedule.name);

  constructor(@InjectQueue(RETENTION_QUEUE) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue
      .upsertJobScheduler(RETENTION_SCHEDULER_ID, { pattern: RETENTION_CRON }, { name: 'prune' })
      .catch((err: Error) => this.logger.warn(`retention not scheduled (Redis): ${err.message}`));
    // The days ahead at once (a DEFAULT partition takes rows meanwhile): one job per day whatever
    // the number of scheduler processes starting (the job id).
    // Retried with backoff: the DDL gives way to writers past its lock timeout (PartitionsBusyError).
    await this.queue
      .add(
        PARTITIONS_JOB,
        {},
        {
          jobId: `${PARTITIONS_JOB}-${new Date().toISOString().slice(0, 10)}`,
          attempts: 8,
          backoff: { type: 'exponential', delay: 1000 },
        },
      )
      .catch((err: Error) => this.logger.warn(`partitions not queued (Redis): ${err.message}`));
  }
}
