import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { RETENTION_CRON, RETENTION_QUEUE, RETENTION_SCHEDULER_ID } from './retention';

/**
 * The one place that puts jobs on the retention queue: a BullMQ job scheduler (repeatable job)
 * with a fixed id, so every scheduler process upserts the same one and each tick runs once.
 */
@Injectable()
export class RetentionSchedule implements OnApplicationBootstrap {
  private readonly logger = new Logger(RetentionSchedule.name);

  constructor(@InjectQueue(RETENTION_QUEUE) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue
      .upsertJobScheduler(RETENTION_SCHEDULER_ID, { pattern: RETENTION_CRON }, { name: 'prune' })
      .catch((err: Error) => this.logger.warn(`retention not scheduled (Redis): ${err.message}`));
  }
}
