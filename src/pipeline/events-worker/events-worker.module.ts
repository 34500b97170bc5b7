import { Module } from '@nestjs/common';
import { ExecutionModule } from '../execution/execution.module';
import { RuleControlsModule } from '../../runtime/rule-controls/rule-controls.module';
import { ContactMirrorModule } from '../contact-mirror/contact-mirror.module';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { LedgerModule } from '../../persistence/ledger/ledger.module';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { RuleSetModule } from '../../runtime/rule-set/rule-set.module';
import { EventFailuresService } from './event-failures.service';
import { TimingModule } from '../execution/timing/timing.module';
import { CustomContactResolver } from '../execution/custom-contacts/custom-contact-resolver.service';
import { EventPipeline } from './event-pipeline.service';
import { EventMatcher } from '../matching/event-matcher.service';
import { EventsProcessor } from './events.processor';
import { ReconcilerService } from './reconciler.service';
import { EventRecords } from '../admission/event-records.service';
import { RunDispatchService } from '../admission/run-dispatch.service';
import { EventFactsService } from '../matching/event-facts.service';
import { ChangeNamesService } from '../matching/change-names.service';
import { MatchedEventsRecorder } from '../admission/matched-events-recorder';
import { UnmatchedEventsRecorder } from '../admission/unmatched-events-recorder';

@Module({})
export class EventsWorkerModule {
  static register(withWorkers: boolean, withScheduler: boolean) {
    return {
      module: EventsWorkerModule,
      imports: [
        QueuesModule,
        LedgerModule,
        CrmGatewayModule,
        RuleSetModule,
        ContactMirrorModule,
        RuleControlsModule,
        TimingModule,
        // The action runner, for an event's runs executed in its job (RunDispatchService).
        ExecutionModule.register(withWorkers),
      ],
      providers: [
        EventPipeline,
        EventMatcher,
        RunDispatchService,
        EventRecords,
        UnmatchedEventsRecorder,
        MatchedEventsRecorder,
        ChangeNamesService,
        EventFactsService,
        CustomContactResolver,
        ...(withWorkers ? [EventsProcessor, EventFailuresService] : []),
        // One reconciler per scheduler process is enough; several are harmless (job ids dedupe).
        ...(withScheduler ? [ReconcilerService] : []),
      ],
      exports: [EventPipeline],
    };
  }
}
