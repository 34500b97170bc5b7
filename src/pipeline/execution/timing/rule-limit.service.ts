// `limit: { max, per }` shared by every engine process: one counter per rule and period in Redis,
// taken by an atomic Lua script (check and increment in one step), expiring with its period.
// Redis is not the truth: a counter it lost (FLUSHALL, a restart without persistence, a failover)
// is rebuilt from the ledger (runs that took a slot in the period) before its first slot goes.
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../../runtime/config/app-config';
import { limitPeriod } from '../../../language/rules/gates/run-gates';
import type { RuleLimit } from '../../../language/rules/format/rule-types';

// KEYS[1] the period's counter; ARGV max, ttl ms. 1: a slot was taken, 0: the period is full,
// -1: no counter (a new period, or Redis lost it): the caller counts the ledger and seeds it.
const TAKE_SLOT_LUA = `
local used = redis.call('GET', KEYS[1])
if not used then return -1 end
if tonumber(used) >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

// Same, after seeding the counter with ARGV[3] (the ledger's count) only if it is still missing
// (SET NX): two processes rebuilding at once seed it once, then both take from the same counter.
const SEED_AND_TAKE_LUA = `
redis.call('SET', KEYS[1], ARGV[3], 'NX', 'PX', ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]))
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Runs of the rule that took a slot in [from, to), as the ledger says (RunsRepository.views.countLimitSlots). */
export type LedgerSlotCount = (from: Date, to: Date) => Promise<number>;

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

  /**
   * Takes one run slot of the rule's current period, or says when the next period starts. When the
   * period has no counter yet, `ledgerCount` tells how many slots runs already took in it.
   */
  async take(
    ruleId: string,
    limit: RuleLimit,
    ledgerCount: LedgerSlotCount,
    now = new Date(),
  ): Promise<LimitOutcome> {
    const { period, nextStart } = limitPeriod(limit, now);
    const key = `${this.prefix}:rule-limit:{${ruleId}}:${limit.perMs}:${period}`;
    // Kept a period past its end, so a slow clock elsewhere still finds it.
    const ttl = nextStart.getTime() - now.getTime() + limit.perMs;
    let taken = await this.redis.eval(TAKE_SLOT_LUA, 1, key, limit.max, ttl);
    if (taken === -1) {
      const used = await ledgerCount(new Date(period * limit.perMs), nextStart);
      taken = await this.redis.eval(SEED_AND_TAKE_LUA, 1, key, limit.max, ttl, used);
    }
    return taken === 1 ? { taken: true } : { taken: false, nextPeriod: nextStart };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'end') return;
    if (this.redis.status === 'wait') return this.redis.disconnect(); // never connected
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
