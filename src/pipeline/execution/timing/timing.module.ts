import { Module } from '@nestjs/common';
import { CrmModule } from '../../../crm/crm.module';
import { LedgerModule } from '../../../persistence/ledger/ledger.module';
import { QueuesModule } from '../../../queues/queues.module';
import { RulesModule } from '../../../rule-set/rules.module';
import { ENGINE_CLOCK, systemClock } from './engine-clock';
import { PolicyGateService } from './policy-gate.service';
import { RuleLimitService } from './rule-limit.service';
import { RunTimingService } from './run-timing.service';
import { WaitCancellationService } from './wait-cancellation.service';

/**
 * Waits, windows, limits and the messaging policy at run time: used by the action runner, the
 * events and the segment sweeps.
 */
@Module({
  imports: [QueuesModule, LedgerModule, CrmModule, RulesModule],
  providers: [
    { provide: ENGINE_CLOCK, useFactory: systemClock },
    RuleLimitService,
    RunTimingService,
    WaitCancellationService,
    PolicyGateService,
  ],
  exports: [ENGINE_CLOCK, RunTimingService, WaitCancellationService, PolicyGateService],
})
export class TimingModule {}
