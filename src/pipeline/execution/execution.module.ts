import { Module } from '@nestjs/common';
import { ContactJournalModule } from '../../persistence/journal/contact-journal.module';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { LedgerModule } from '../../persistence/ledger/ledger.module';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { ContactMirrorModule } from '../contact-mirror/contact-mirror.module';
import { ActionRunnerService } from './action-runner.service';
import { ExecutionProcessor } from './execution.processor';
import { TimingModule } from './timing/timing.module';
import { EgressModule } from '../../outbound/egress/egress.module';

@Module({})
export class ExecutionModule {
  /** Processors only where this process works the queues (ROLE all or worker). */
  static register(withWorkers: boolean) {
    return {
      module: ExecutionModule,
      imports: [
        QueuesModule,
        LedgerModule,
        CrmGatewayModule,
        ContactMirrorModule,
        ContactJournalModule,
        TimingModule,
        EgressModule,
      ],
      providers: [ActionRunnerService, ...(withWorkers ? [ExecutionProcessor] : [])],
      exports: [ActionRunnerService],
    };
  }
}
