import { Module } from '@nestjs/common';
import { CredentialThrottle } from '../access/credential-throttle.service';
import { EngineMetrics } from './engine-metrics';
import { TerminusModule } from '@nestjs/terminus';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { RuleSetModule } from '../../runtime/rule-set/rule-set.module';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';

@Module({
  imports: [TerminusModule, QueuesModule, RuleSetModule, CrmGatewayModule],
  controllers: [HealthController, MetricsController],
})
export class HealthModule {
  constructor(throttle: CredentialThrottle, metrics: EngineMetrics) {
    // Every refused credential, at every door, counted where /metrics shows it.
    throttle.onRefusal = (door, reason) => {
      metrics.credentialFailures.inc({ door, reason });
      if (door === 'console')
        metrics.consoleLoginFailures.inc({ reason: reason === 'wrong' ? 'wrong_token' : reason });
    };
  }
}
