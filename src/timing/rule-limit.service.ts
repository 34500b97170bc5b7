// `limit: { max, per }` shared by every engine process: one counter per rule and period in Redis,
// taken by an atomic Lua script (check and increment in one step), expiring with its period.
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { limitPeriod } from '../rules/run-gates';
import type { RuleLimit } from '../rules/rule-types';

// KEYS[1] the period's counter; ARGV max, ttl ms. 1: a slot was taken, 0: the period is full.
const TAKE_SLOT_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

export type LimitOutcome = { taken: true } | { taken: false; nextPeriod: Date };

@Injectable()
export class RuleLimitService implements OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.redis = new Redis(config.redis.url, {
      maxRetriesPerRequest: 3,
      connectionName: 'rule-limits',
      lazyConnect: true, // only processes that run actions take slots
    });
    this.prefix = config.redis.prefix;
  }

  /** Takes one run slot of the rule's current period, or says when the next period starts. */
  async take(ruleId: string, limit: RuleLimit, now = new Date()): Promise<LimitOutcome> {
    const { period, nextStart } = limitPeriod(limit, now);
    const key = `${this.prefix}:rule-limit:{${ruleId}}:${limit.perMs}:${period}`;
    // Kept a period past its end, so a slow clock elsewhere still finds it.
    const ttl = nextStart.getTime() - now.getTime() + limit.perMs;
    const taken = await this.redis.eval(TAKE_SLOT_LUA, 1, key, limit.max, ttl);
    return taken === 1 ? { taken: true } : { taken: false, nextPeriod: nextStart };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'end') return;
    if (this.redis.status === 'wait') return this.redis.disconnect(); // never connected
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
