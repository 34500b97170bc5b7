import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { QueuesModule } from '../queues/queues.module';
import { RulesModule } from '../rules/rules.module';
import { FailureOperationsService } from './failure-operations.service';
import { RulesAdminController } from './rules-admin.controller';
import { RunsAdminController } from './runs-admin.controller';

@Module({
  imports: [QueuesModule, LedgerModule, RulesModule],
  controllers: [RunsAdminController, RulesAdminController],
  providers: [FailureOperationsService],
  exports: [FailureOperationsService],
})
export class AdminModule {}
