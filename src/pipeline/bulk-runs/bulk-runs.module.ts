// Bulk runs: backfills on activation and manual runs for a list of contacts, previewed, confirmed,
// executed by the bulk-runs queue. One service for the admin API, the console and the CLI.
import { DynamicModule, Module } from '@nestjs/common';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { RuleControlsModule } from '../../runtime/rule-controls/rule-controls.module';
import { RuleSetModule } from '../../runtime/rule-set/rule-set.module';
import { BackfillActivationService } from './backfill-activation.service';
import { BulkRunPreviewService } from './bulk-run-preview.service';
import { BulkRunProcessor } from './bulk-run.processor';
import { BulkRunsQueue } from './bulk-runs-queue.service';
import { BulkRunsService } from './bulk-runs.service';
import { BulkRunExecutor } from './bulk-run-executor.service';

@Module({
  imports: [RuleSetModule, RuleControlsModule, QueuesModule],
  providers: [BulkRunsService, BulkRunExecutor, BulkRunPreviewService, BulkRunsQueue],
  exports: [BulkRunsService, BulkRunExecutor],
})
export class BulkRunsModule {}

/** The job processor where this process works the queues; backfill preparation where it schedules. */
@Module({})
export class BulkRunsWorkModule {
  static register(withWorkers: boolean, withScheduler: boolean): DynamicModule {
    return {
      module: BulkRunsWorkModule,
      imports: [BulkRunsModule, RuleSetModule],
      providers: [
        ...(withWorkers ? [BulkRunProcessor] : []),
        ...(withScheduler ? [BackfillActivationService] : []),
      ],
    };
  }
}
