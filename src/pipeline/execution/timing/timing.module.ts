import { Module } from '@nestjs/common';
import { CrmGatewayModule } from '../../../outbound/crm-gateway/crm-gateway.module';
import { LedgerModule } from '../../../persistence/ledger/ledger.module';
import { QueuesModule } from '../../../runtime/queues/queues.module';
import { RuleSetModule } from '../../../runtime/rule-set/rule-set.module';
import { PolicyGateService } from './policy-gate.service';
import { RuleLimitService } from './rule-limit.service';
import { RunTimingService } from './run-timing.service';
import { WaitCancellationService } from './wait-cancellation.service';

/**
 * Waits, windows, limits and the messaging policy at run time: used by the action runner, the
 * events and the segment sweeps. Their clock (ENGINE_CLOCK) is the process's, from ConfigModule.
 */
@Module({
  imports: [QueuesModule, LedgerModule, CrmGatewayModule, RuleSetModule],
  providers: [RuleLimitService, RunTimingService, WaitCancellationService, PolicyGateService],
  exports: [RunTimingService, WaitCancellationService, PolicyGateService],
})
export class TimingModule {}
