import { Module } from '@nestjs/common';
import { ContactJournalModule } from '../../persistence/journal/contact-journal.module';
import { CrmModule } from '../../outbound/crm-gateway/crm.module';
import { LedgerModule } from '../../persistence/ledger/ledger.module';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { ContactMirrorModule } from '../contact-mirror/contact-mirror.module';
import { ActionRunnerService } from './action-runner.service';
import { ActionsProcessor } from './actions.processor';
import { TimingModule } from './timing/timing.module';
import { EgressModule } from '../../outbound/egress/egress.module';

@Module({})
export class ActionsModule {
  /** Processors only where this process works the queues (ROLE all or worker). */
  static register(withWorkers: boolean) {
    return {
      module: ActionsModule,
      imports: [
        QueuesModule,
        LedgerModule,
        CrmModule,
        ContactMirrorModule,
        ContactJournalModule,
        TimingModule,
        EgressModule,
      ],
      providers: [ActionRunnerService, ...(withWorkers ? [ActionsProcessor] : [])],
      exports: [ActionRunnerService],
    };
  }
}
