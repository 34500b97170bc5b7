// Manual runs: one service shared by the admin API and the console.
import { Module } from '@nestjs/common';
import { CrmGatewayModule } from '../../../outbound/crm-gateway/crm-gateway.module';
import { QueuesModule } from '../../../runtime/queues/queues.module';
import { RuleControlsModule } from '../../../runtime/rule-controls/rule-controls.module';
import { RuleSetModule } from '../../../runtime/rule-set/rule-set.module';
import { ManualRunsService } from './manual-runs.service';

@Module({
  imports: [RuleSetModule, CrmGatewayModule, RuleControlsModule, QueuesModule],
  providers: [ManualRunsService],
  exports: [ManualRunsService],
})
export class ManualRunsModule {}
