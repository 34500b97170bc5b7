import { Module } from '@nestjs/common';
import { CrmModule } from '../../../outbound/crm-gateway/crm.module';
import { LedgerModule } from '../../../persistence/ledger/ledger.module';
import { QueuesModule } from '../../../runtime/queues/queues.module';
import { RulesModule } from '../../../runtime/rule-set/rules.module';
import { PolicyGateService } from './policy-gate.service';
import { RuleLimitService } from './rule-limit.service';
import { RunTimingService } from './run-timing.service';
import { WaitCancellationService } from './wait-cancellation.service';

/**
 * Waits, windows, limits and the messaging policy at run time: used by the action runner, the
 * events and the segment sweeps. Their clock (ENGINE_CLOCK) is the process's, from ConfigModule.
 */
@Module({
  imports: [QueuesModule, LedgerModule, CrmModule, RulesModule],
  providers: [RuleLimitService, RunTimingService, WaitCancellationService, PolicyGateService],
  exports: [RunTimingService, WaitCancellationService, PolicyGateService],
})
export class TimingModule {}
