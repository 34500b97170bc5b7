// The gateway's own Redis connection (budget, round robin), separate from BullMQ's so a
// blocked queue connection never delays a budget decision.
import Redis from 'ioredis';

export const CRM_REDIS = Symbol('CRM_REDIS');

export function createCrmRedis(url: string): Redis {
  // Budget scripts must fail fast rather than queue forever while Redis is away.
  return new Redis(url, { maxRetriesPerRequest: 3, enableOfflineQueue: true, connectionName: 'crm-gateway' });
}
