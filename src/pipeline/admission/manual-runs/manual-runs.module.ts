// Manual runs: one service shared by the admin API and the console.
import { Module } from '@nestjs/common';
import { CrmModule } from '../../../outbound/crm-gateway/crm.module';
import { QueuesModule } from '../../../runtime/queues/queues.module';
import { RuleControlsModule } from '../../../runtime/rule-controls/rule-controls.module';
import { RulesModule } from '../../../runtime/rule-set/rules.module';
import { ManualRunsService } from './manual-runs.service';

@Module({
  imports: [RulesModule, CrmModule, RuleControlsModule, QueuesModule],
  providers: [ManualRunsService],
  exports: [ManualRunsService],
})
export class ManualRunsModule {}
