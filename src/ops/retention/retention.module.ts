import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { ConsoleSessionsModule } from '../../console/auth/console-sessions.module';
import { LedgerModule } from '../../ledger/ledger.module';
import { RETENTION_QUEUE } from './retention';
import { RetentionProcessor } from './retention.processor';
import { RetentionSchedule } from './retention-schedule.service';
import { RetentionService } from './retention.service';

/** Daily prune of old ledger rows (RETENTION_DAYS) and of expired console sessions: scheduled by
 * the scheduler role, run by a worker. */
@Module({})
export class RetentionModule {
  static register(withWorkers: boolean, withScheduler: boolean) {
    return {
      module: RetentionModule,
      imports: [
        LedgerModule,
        ConsoleSessionsModule,
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
