import { Module } from '@nestjs/common';
import { CrmModule } from '../crm/crm.module';
import { LedgerModule } from '../ledger/ledger.module';
import { QueuesModule } from '../queues/queues.module';
import { ENGINE_CLOCK, systemClock } from './engine-clock';
import { RuleLimitService } from './rule-limit.service';
import { RunTimingService } from './run-timing.service';
import { WaitCancellationService } from './wait-cancellation.service';

/** Waits, windows and limits at run time: used by the action runner, the events and the segment sweeps. */
@Module({
  imports: [QueuesModule, LedgerModule, CrmModule],
  providers: [
    { provide: ENGINE_CLOCK, useFactory: systemClock },
    RuleLimitService,
    RunTimingService,
    WaitCancellationService,
  ],
  exports: [ENGINE_CLOCK, RunTimingService, WaitCancellationService],
})
export class TimingModule {}
