// The CRM gateway module: the only HTTP caller of the CRM. Owns its Redis connection (shared
// budget, round robin) and closes it when the application shuts down.
import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CrmDirectory } from './crm-directory.service';
import { CrmGateway } from './crm-gateway.service';
import { CRM_REDIS, createCrmRedis } from './crm-redis';

@Module({
  providers: [
    {
      provide: CRM_REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createCrmRedis(config.redis.url),
    },
    CrmGateway,
    CrmDirectory,
  ],
  exports: [CrmGateway, CrmDirectory],
})
export class CrmModule implements OnApplicationShutdown {
  constructor(@Inject(CRM_REDIS) private readonly redis: Redis) {}

  // After every module's onModuleDestroy: the gateway has released its waiters by then.
  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
