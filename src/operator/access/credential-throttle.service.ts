// The one throttle every credential check goes through (console login form, admin API token, user
// API tokens, /health's detail, Bull Board, /metrics, /docs): failures per client (client-key.ts:
// req.ip, which honours TRUST_PROXY; an IPv6 client by its /64) in Redis, shared by every API
// process and forgotten by itself with a TTL. The wait of credential-throttle.ts is enforced by
// one Lua script; each refusal is counted (crmr_credential_failures_total{door,reason}), logged
// without the credential, and alerted in bursts.
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { clientKey } from './client-key';
import { delaySchedule, isAlertBurst, LOGIN_THROTTLE } from './credential-throttle';

// KEYS[1] the client's hash {failures, next}; ARGV now ms, forget-after ms, then the wait after
// 1, 2, … failures (the last one for every count beyond). Too early: {0, ms to wait, failures}.
// Else the attempt is counted as a failure now and {1, wait before the next one, failures,
// the previous next}.
const ATTEMPT_LUA = `
local now = tonumber(ARGV[1])
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
if now < nextAt then
  return {0, nextAt - now, tonumber(redis.call('HGET', KEYS[1], 'failures') or '0'), nextAt}
end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local delay = tonumber(ARGV[2 + math.min(failures, #ARGV - 2)])
redis.call('HSET', KEYS[1], 'next', string.format('%.0f', now + delay))
redis.call('PEXPIRE', KEYS[1], delay + tonumber(ARGV[2]))
return {1, delay, failures, nextAt}`;

// A success takes back its own attempt's count and wait, and nothing more: failures before it
// stand (a client holding one good credential cannot wipe its guesses at another). ARGV[1] the
// previous next.
const SUCCESS_LUA = `
local failures = redis.call('HINCRBY', KEYS[1], 'failures', -1)
if failures <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'next', ARGV[1])
end
return failures`;

export type Door = 'console' | 'admin' | 'health' | 'queue_board' | 'docs' | 'metrics';

export type LoginAttempt =
  | { allowed: true; failures: number; nextDelayMs: number; previousNext: number }
  | { allowed: false; retryAfterMs: number; failures: number };

export type Checked<T> =
  | { ok: true; value: T }
  | { ok: false; status: 401; message: string }
  | { ok: false; status: 429; retryAfterMs: number; message: string }
  | { ok: false; status: 503; message: string };

@Injectable()
export class CredentialThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger(CredentialThrottle.name);
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly schedule = delaySchedule(LOGIN_THROTTLE);
  /** The clock of the waits; e2e tests replace it to step through them without sleeping. */
  now: () => number = Date.now;
  /** Told of every alertEvery-th failure in a row from one client (the console wires its alerts). */
  onBurst?: (message: string) => Promise<void>;
  /** Told of every refusal (ops/health.module.ts counts them in crmr_credential_failures_total). */
  onRefusal?: (door: Door, reason: 'wrong' | 'throttled') => void;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.redis = new Redis(config.redis.url, {
      maxRetriesPerRequest: 3,
      connectionName: 'credential-throttle',
      lazyConnect: true, // only processes that are presented a credential connect
    });
    this.prefix = config.redis.prefix;
  }

  /**
   * Checks one presented credential at `door` for the client at `address`: refused unchecked (429)
   * while the client waits, else `verify` decides; undefined from it counts a failure. Without
   * Redis nothing is checked (503): no throttle, no check.
   */
  async check<T>(
    door: Door,
    address: string | undefined,
    verify: () => Promise<T | undefined>,
  ): Promise<Checked<T>> {
    const client = clientKey(address);
    let attempt: LoginAttempt;
    try {
      attempt = await this.attempt(client, door);
    } catch (err) {
      this.logger.warn(
        `credential at ${door} refused: throttle unavailable (Redis): ${(err as Error).message}`,
      );
      return {
        ok: false,
        status: 503,
        message: 'credential check unavailable for a moment; try again shortly',
      };
    }
    if (!attempt.allowed)
      return {
        ok: false,
        status: 429,
        retryAfterMs: attempt.retryAfterMs,
        message: `too many wrong credentials from this client: try again in ${Math.ceil(attempt.retryAfterMs / 1000)} s`,
      };
    const value = await verify();
    if (value === undefined) {
      await this.failed(client, door, attempt);
      return { ok: false, status: 401, message: 'credential missing or wrong' };
    }
    await this.redis.eval(SUCCESS_LUA, 1, this.key(client), attempt.previousNext);
    return { ok: true, value };
  }

  /** Forgets a client's failures (an operator unlocking a client they trust; tests). */
  async forget(address: string | undefined): Promise<void> {
    await this.redis.del(this.key(clientKey(address)));
  }

  private async attempt(client: string, door: Door): Promise<LoginAttempt> {
    const [allowed, ms, failures, previousNext] = (await this.redis.eval(
      ATTEMPT_LUA,
      1,
      this.key(client),
      this.now(),
      LOGIN_THROTTLE.forgetAfterMs,
      ...this.schedule,
    )) as [number, number, number, number];
    if (allowed === 1) return { allowed: true, failures, nextDelayMs: ms, previousNext };
    this.count(door, 'throttled');
    this.logger.warn(
      `credential at ${door} from ${client} refused unchecked: ${failures} wrong in a row, next try in ${ms} ms`,
    );
    return { allowed: false, retryAfterMs: ms, failures };
  }

  private async failed(client: string, door: Door, attempt: LoginAttempt & { allowed: true }): Promise<void> {
    this.count(door, 'wrong');
    this.logger.warn(
      `credential at ${door} from ${client} refused: wrong (${attempt.failures} in a row, ` +
        `next try in ${attempt.nextDelayMs} ms)`,
    );
    if (isAlertBurst(attempt.failures) && this.onBurst)
      await this.onBurst(`${attempt.failures} wrong credentials in a row from ${client} (last at ${door})`);
  }

  private count(door: Door, reason: 'wrong' | 'throttled'): void {
    this.onRefusal?.(door, reason);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'end') return;
    if (this.redis.status === 'wait') return this.redis.disconnect(); // never connected
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private key(client: string): string {
    return `${this.prefix}:credentials:${client}`;
  }
}
