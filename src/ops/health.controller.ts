import { InjectQueue } from '@nestjs/bullmq';
import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Queue } from 'bullmq';
import { EVENTS_QUEUE } from '../queues/queues';
import { RuleSetService } from '../rules/rule-set.service';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly rules: RuleSetService,
    @InjectQueue(EVENTS_QUEUE) private readonly events: Queue,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: 'Postgres, Redis and the loaded rule set' })
  check() {
    return this.health.check([
      () => this.db.pingCheck('postgres', { timeout: 2000 }),
      async () => {
        const redis = this.indicators.check('redis');
        try {
          const client = (await this.events.client) as unknown as { ping(): Promise<string> };
          const pong = await Promise.race([
            client.ping(),
            new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000)),
          ]);
          return pong === 'PONG' ? redis.up() : redis.down({ message: 'unexpected reply' });
        } catch (err) {
          return redis.down({ message: (err as Error).message });
        }
      },
      async () => {
        const rules = this.indicators.check('rules');
        const status = this.rules.status();
        const info = {
          version: status.version,
          ruleCount: status.ruleCount,
          lastReloadOk: status.lastAttempt?.ok,
        };
        return this.rules.current() ? rules.up(info) : rules.down(info);
      },
    ]);
  }
}
