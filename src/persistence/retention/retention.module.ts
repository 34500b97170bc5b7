import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { RETENTION_QUEUE } from './retention';
import { RetentionProcessor } from './retention.processor';
import { RetentionSchedule } from './retention-schedule.service';
import { RetentionService } from './retention.service';

/** Daily prune of every table that grows (GROWING_TABLES): scheduled by the scheduler role, run by a worker. */
@Module({})
export class RetentionModule {
  static register(withWorkers: boolean, withScheduler: boolean) {
    return {
      module: RetentionModule,
      imports: [
        BullModule.registerQueue({
          name: RETENTION_QUEUE,
          defaultJobOptions: {
            removeOnComplete: 30,
            removeOnFail: 30,
            attempts: 3,
            backoff: { type: 'exponential', delay: 60_000 },
          },
        }),
      ],
      providers: [
        RetentionService,
        ...(withWorkers ? [RetentionProcessor] : []),
        ...(withScheduler ? [RetentionSchedule] : []),
      ],
      exports: [RetentionService],
    };
  }
}
