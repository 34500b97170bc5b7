import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CrmModule } from '../crm/crm.module';
import { QueuesModule } from '../queues/queues.module';
import { RulesModule } from '../rule-set/rules.module';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';

@Module({
  imports: [TerminusModule, QueuesModule, RulesModule, CrmModule],
  controllers: [HealthController, MetricsController],
})
export class HealthModule {}
