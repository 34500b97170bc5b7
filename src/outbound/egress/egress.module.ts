// Outbound HTTP of rules (http-request): the sender and its own Redis connection for the
// per-host limits, apart from the CRM gateway's, closed at shutdown.
import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { EGRESS_REDIS, OutboundRequests } from './outbound-requests.service';

@Module({
  providers: [
    {
      provide: EGRESS_REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new Redis(config.redis.url, { maxRetriesPerRequest: 3, connectionName: 'egress', lazyConnect: true }),
    },
    OutboundRequests,
  ],
  exports: [OutboundRequests],
})
export class EgressModule implements OnApplicationShutdown {
  constructor(@Inject(EGRESS_REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'end' || this.redis.status === 'wait') return this.redis.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
