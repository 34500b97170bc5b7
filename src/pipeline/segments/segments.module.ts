import { RuleControlsModule } from '../../runtime/rule-controls/rule-controls.module';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { LedgerModule } from '../../persistence/ledger/ledger.module';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { RuleSetModule } from '../../runtime/rule-set/rule-set.module';
import { ContactMirrorModule } from '../contact-mirror/contact-mirror.module';
import { SegmentMembershipEntity } from './segment-membership.entity';
import { SegmentPlanService } from './plan/segment-plan.service';
import { SegmentRuleStateEntity } from './segment-rule-state.entity';
import { SegmentRuleStateRepository } from './segment-rule-state.repository';
import { SegmentSweepsRepository } from './sweeps/segment-sweeps.repository';
import { SegmentSweepsPruner } from './sweeps/segment-sweeps-pruner';
import { SegmentSweepEntity } from './segment-sweep.entity';
import { SegmentSyncService } from './sweeps/segment-sync.service';
import { SegmentsAdminController } from './segments-admin.controller';
import { SweepQueueService } from './sweeps/sweep-queue.service';
import { SweepSchedulerService } from './sweeps/sweep-scheduler.service';
import { SweepStatusService } from './sweeps/sweep-status.service';
import { SweepProcessor } from './sweeps/sweep.processor';
import { SweepService } from './sweeps/sweep.service';

/** Scheduled segment rules: contact mirror, sweeps, memberships, plan and progress. */
@Module({})
export class SegmentsModule {
  /** Sweep processor only where this process works the queues; cron jobs only in scheduler processes. */
  static register(withWorkers: boolean, withScheduler: boolean): DynamicModule {
    return {
      module: SegmentsModule,
      imports: [
        QueuesModule,
        LedgerModule,
        CrmGatewayModule,
        RuleSetModule,
        ContactMirrorModule,
        RuleControlsModule,
        TypeOrmModule.forFeature([SegmentRuleStateEntity, SegmentMembershipEntity, SegmentSweepEntity]),
      ],
      controllers: [SegmentsAdminController],
      providers: [
        SegmentRuleStateRepository,
        SegmentSweepsRepository,
        SegmentSweepsPruner,
        SweepService,
        SegmentSyncService,
        SegmentPlanService,
        SweepStatusService,
        SweepQueueService,
        ...(withWorkers ? [SweepProcessor] : []),
        ...(withScheduler ? [SweepSchedulerService] : []),
      ],
      exports: [ContactMirrorModule, SweepService, SegmentPlanService, SweepQueueService],
    };
  }
}
