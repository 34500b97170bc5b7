import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RETENTION_QUEUE } from './retention';
import { RetentionProcessor } from './retention.processor';
import { RetentionSchedule } from './retention-schedule.service';
import { RetentionService } from './retention.service';

/**
 * Daily prune of every table that grows (GROWING_TABLES): scheduled by the scheduler role, run by a
 * worker. Each table's statement is its owner's @PrunesTable provider (table-pruner.ts).
 */
@Module({})
export class RetentionModule {
  static register(withWorkers: boolean, withScheduler: boolean) {
    return {
      module: RetentionModule,
      imports: [
        DiscoveryModule,
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
