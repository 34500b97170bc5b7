// The CRM gateway module: the only HTTP caller of the CRM, handed out as faces over one gateway
// (reads, writes, the budget's state). Owns its Redis connection (shared budget, round robin)
// and closes it when the application shuts down.
import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { CrmBudgetView } from './crm-budget-view';
import { CrmDirectory } from './crm-directory.service';
import { CrmGateway } from './crm-gateway.service';
import { CrmReads } from './crm-reads';
import { CrmWrites } from './crm-writes';
import { CRM_REDIS, createCrmRedis } from './crm-redis';

@Module({
  providers: [
    {
      provide: CRM_REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createCrmRedis(config.redis.url),
    },
    // One gateway, one budget; callers get a face of it: what they may do is what they import.
    CrmGateway,
    CrmReads,
    CrmWrites,
    CrmBudgetView,
    CrmDirectory,
  ],
  exports: [CrmReads, CrmWrites, CrmBudgetView, CrmDirectory],
})
export class CrmGatewayModule implements OnApplicationShutdown {
  constructor(@Inject(CRM_REDIS) private readonly redis: Redis) {}

  // After every module's onModuleDestroy: the gateway has released its waiters by then.
  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
