import { Module } from '@nestjs/common';
import { ContactMirrorModule } from '../contacts/contact-mirror.module';
import { CrmModule } from '../crm/crm.module';
import { LedgerModule } from '../ledger/ledger.module';
import { QueuesModule } from '../queues/queues.module';
import { RulesModule } from '../rules/rules.module';
import { TimingModule } from '../timing/timing.module';
import { EventMatchingService } from './event-matching.service';
import { EventsProcessor } from './events.processor';
import { ReconcilerService } from './reconciler.service';

@Module({})
export class EventsModule {
  static register(withWorkers: boolean, withScheduler: boolean) {
    return {
      module: EventsModule,
      imports: [QueuesModule, LedgerModule, CrmModule, RulesModule, ContactMirrorModule, TimingModule],
      providers: [
        EventMatchingService,
        ...(withWorkers ? [EventsProcessor] : []),
        // One reconciler per scheduler process is enough; several are harmless (job ids dedupe).
        ...(withScheduler ? [ReconcilerService] : []),
      ],
      exports: [EventMatchingService],
    };
  }
}
