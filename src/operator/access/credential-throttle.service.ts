// The one throttle every credential check goes through (console login form, admin API token, user
// API tokens, /health's detail, Bull Board, /metrics, /docs): failures per client (client-key.ts:
// req.ip, which honours TRUST_PROXY; an IPv6 client by its /64) in Redis, shared by every API
// process and forgotten by itself with a TTL. The wait and the checks in flight of
// credential-throttle.ts are enforced by two Lua scripts (an attempt's turn, its end); each refusal
// is counted (crmr_credential_failures_total{door,reason}), logged without the credential, and
// alerted in bursts.
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { clientKey } from './client-key';
import { delaySchedule, inFlightSchedule, isAlertBurst, LOGIN_THROTTLE } from './credential-throttle';

// KEYS[1] the client's hash {failures, next}, KEYS[2] its checks in flight (a sorted set: attempt
// token → start ms). ARGV: now ms, lost-check ms, forget-after ms, the token, then how many checks
// may be in flight with 0, 1, … failures on record (the last one for every count beyond). Too early:
// {0, ms to wait, failures}. Its turn not come (as many checks in flight as allowed): {2, 0,
// failures}. Else the attempt is in flight: {1, 0, failures}.
const ATTEMPT_LUA = `
local now = tonumber(ARGV[1])
local failures = tonumber(redis.call('HGET', KEYS[1], 'failures') or '0')
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
if now < nextAt then return {0, nextAt - now, failures} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]))
local cap = tonumber(ARGV[5 + math.min(failures, #ARGV - 5)])
if redis.call('ZCARD', KEYS[2]) >= cap then return {2, 0, failures} end
redis.call('ZADD', KEYS[2], now, ARGV[4])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[3]))
return {1, 0, failures}`;

// The end of a check. ARGV: the token, 1 if the credential was wrong, now ms, forget-after ms,
// then the wait after 1, 2, … failures (the last one for every count beyond). A success changes
// nothing else: failures before it stand (a client holding one good credential cannot wipe its
// guesses at another). {failures, wait before the next attempt}.
const FINISH_LUA = `
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[2] ~= '1' then return {tonumber(redis.call('HGET', KEYS[1], 'failures') or '0'), 0} end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local delay = tonumber(ARGV[4 + math.min(failures, #ARGV - 4)])
redis.call('HSET', KEYS[1], 'next', string.format('%.0f', tonumber(ARGV[3]) + delay))
redis.call('PEXPIRE', KEYS[1], delay + tonumber(ARGV[4]))
return {failures, delay}`;

/** How long an attempt waits before asking again for its turn. */
const TURN_POLL_MS = 20;

export type Door = 'console' | 'admin' | 'health' | 'queue_board' | 'docs' | 'metrics';

export type LoginAttempt = { allowed: true; token: string } | { allowed: false; retryAfterMs: number };

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
  private readonly inFlight = inFlightSchedule(LOGIN_THROTTLE);
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
   * while the client waits, or when its turn among the client's checks in flight does not come
   * within `queueMs`; else `verify` decides, undefined from it counts a failure. Without Redis
   * nothing is checked (503): no throttle, no check.
   */
  async check<T>(
    door: Door,
    address: string | undefined,
    verify: () => Promise<T | undefined>,
  ): Promise<Checked<T>> {
    const client = clientKey(address);
    let attempt: LoginAttempt;
    try {
      attempt = await this.attemptInTurn(client, door);
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
    let value: T | undefined;
    try {
      value = await verify();
    } catch (err) {
      // Not known to be wrong: its place is freed, nothing counted.
      await this.finish(client, attempt.token, false).catch(() => undefined);
      throw err;
    }
    if (value === undefined) {
      const [failures, nextDelayMs] = await this.finish(client, attempt.token, true);
      await this.failed(client, door, failures, nextDelayMs);
      return { ok: false, status: 401, message: 'credential missing or wrong' };
    }
    await this.finish(client, attempt.token, false);
    return { ok: true, value };
  }

  /** Forgets a client's failures (an operator unlocking a client they trust; tests). */
  async forget(address: string | undefined): Promise<void> {
    const client = clientKey(address);
    await this.redis.del(this.key(client), this.checkingKey(client));
  }

  /**
   * A place among the client's checks in flight (checksInFlight), waiting up to queueMs for it:
   * a client's correct credentials sent at once are all checked, one after another if need be,
   * while parallel guesses meet the wait their first failures earn.
   */
  private async attemptInTurn(client: string, door: Door): Promise<LoginAttempt> {
    const token = randomUUID();
    const queuedUntil = performance.now() + LOGIN_THROTTLE.queueMs;
    for (;;) {
      const [state, ms, failures] = (await this.redis.eval(
        ATTEMPT_LUA,
        2,
        this.key(client),
        this.checkingKey(client),
        this.now(),
        LOGIN_THROTTLE.lostCheckMs,
        LOGIN_THROTTLE.forgetAfterMs,
        token,
        ...this.inFlight,
      )) as [number, number, number];
      if (state === 1) return { allowed: true, token };
      if (state === 2 && performance.now() < queuedUntil) {
        await new Promise((resolve) => setTimeout(resolve, TURN_POLL_MS));
        continue;
      }
      this.count(door, 'throttled');
      const waited =
        state === 2 ? `checks in flight for ${LOGIN_THROTTLE.queueMs} ms` : `next try in ${ms} ms`;
      this.logger.warn(
        `credential at ${door} from ${client} refused unchecked: ${failures} wrong in a row, ${waited}`,
      );
      return { allowed: false, retryAfterMs: state === 2 ? 1_000 : ms };
    }
  }

  /** Ends a check: frees its place and, when `wrong`, counts the failure. [failures, next wait]. */
  private async finish(client: string, token: string, wrong: boolean): Promise<[number, number]> {
    return (await this.redis.eval(
      FINISH_LUA,
      2,
      this.key(client),
      this.checkingKey(client),
      token,
      wrong ? 1 : 0,
      this.now(),
      LOGIN_THROTTLE.forgetAfterMs,
      ...this.schedule,
    )) as [number, number];
  }

  private async failed(client: string, door: Door, failures: number, nextDelayMs: number): Promise<void> {
    this.count(door, 'wrong');
    this.logger.warn(
      `credential at ${door} from ${client} refused: wrong (${failures} in a row, ` +
        `next try in ${nextDelayMs} ms)`,
    );
    if (isAlertBurst(failures) && this.onBurst)
      await this.onBurst(`${failures} wrong credentials in a row from ${client} (last at ${door})`);
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

  private checkingKey(client: string): string {
    return `${this.key(client)}:checking`;
  }
}
