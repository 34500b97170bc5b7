// The gateway's own Redis connection (budget, round robin), separate from BullMQ's so a
// blocked queue connection never delays a budget decision.
import Redis from 'ioredis';

export const CRM_REDIS = Symbol('CRM_REDIS');

export function createCrmRedis(url: string): Redis {
  // While Redis is away, a budget call waits in ioredis's offline queue for at most 3 reconnect
  // attempts (maxRetriesPerRequest) and then fails, rather than waiting forever.
  return new Redis(url, { maxRetriesPerRequest: 3, enableOfflineQueue: true, connectionName: 'crm-gateway' });
}
