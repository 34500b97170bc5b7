import { Module } from '@nestjs/common';
import { EventExplainModule } from '../../pipeline/matching/event-explain.module';
import { ContactMirrorModule } from '../../pipeline/contact-mirror/contact-mirror.module';
import { LedgerModule } from '../../persistence/ledger/ledger.module';
import { ManualRunsModule } from '../../pipeline/admission/manual-runs/manual-runs.module';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { RuleSetModule } from '../../runtime/rule-set/rule-set.module';
import { DeployService } from '../../runtime/rule-set/deploy/deploy.service';
import { DeployAdminController } from './deploy-admin.controller';
import { EventsAdminController } from './events-admin.controller';
import { ExportsAdminController } from './exports-admin.controller';
import { FailureOperationsService } from './failure-operations.service';
import { ManualRunsAdminController } from './manual-runs-admin.controller';
import { BulkRunsAdminController } from './bulk-runs-admin.controller';
import { BulkRunsModule } from '../../pipeline/bulk-runs/bulk-runs.module';
import { RulesAdminController } from './rules-admin.controller';
import { RunsAdminController } from './runs-admin.controller';
import { UsersAdminController } from './users-admin.controller';

@Module({
  imports: [
    QueuesModule,
    LedgerModule,
    RuleSetModule,
    ContactMirrorModule,
    ManualRunsModule,
    EventExplainModule,
    BulkRunsModule,
  ],
  // Exports first: its static /admin/events/export must win over /admin/events/:id.
  controllers: [
    ExportsAdminController,
    RunsAdminController,
    EventsAdminController,
    RulesAdminController,
    ManualRunsAdminController,
    BulkRunsAdminController,
    DeployAdminController,
    UsersAdminController,
  ],
  providers: [FailureOperationsService, DeployService],
  exports: [FailureOperationsService, DeployService],
})
export class AdminModule {}
