// Failed console logins per client address, in Redis (shared by every API process, forgotten by
// itself with a TTL): the wait of login-throttle.ts enforced by one Lua script, each refusal
// counted (crmr_console_login_failures_total), logged without the token, and alerted in bursts.
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { EngineMetrics } from '../../ops/engine-metrics';
import { AlertsService } from '../alerts/alerts.service';
import { delaySchedule, isAlertBurst, LOGIN_THROTTLE } from './login-throttle';

// KEYS[1] the address's hash {failures, next}; ARGV now ms, forget-after ms, then the wait after
// 1, 2, … failures (the last one for every count beyond). Too early: {0, ms to wait, failures}.
// Else the attempt is counted as a failure now and {1, wait before the next one, failures}.
const ATTEMPT_LUA = `
local now = tonumber(ARGV[1])
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
if now < nextAt then
  return {0, nextAt - now, tonumber(redis.call('HGET', KEYS[1], 'failures') or '0')}
end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local delay = tonumber(ARGV[2 + math.min(failures, #ARGV - 2)])
redis.call('HSET', KEYS[1], 'next', string.format('%.0f', now + delay))
redis.call('PEXPIRE', KEYS[1], delay + tonumber(ARGV[2]))
return {1, delay, failures}`;

export type LoginAttempt =
  | { allowed: true; failures: number; nextDelayMs: number }
  | { allowed: false; retryAfterMs: number; failures: number };

@Injectable()
export class LoginThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly schedule = delaySchedule(LOGIN_THROTTLE);
  /** The clock of the waits; e2e tests replace it to step through them without sleeping. */
  now: () => number = Date.now;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: EngineMetrics,
    private readonly alerts: AlertsService,
  ) {
    this.redis = new Redis(config.redis.url, {
      maxRetriesPerRequest: 3,
      connectionName: 'console-login',
      lazyConnect: true, // only processes whose console gets a login attempt connect
    });
    this.prefix = config.redis.prefix;
  }

  /** Call before checking the token: counts the attempt as a failure unless succeeded() follows. */
  async attempt(address: string): Promise<LoginAttempt> {
    const [allowed, ms, failures] = (await this.redis.eval(
      ATTEMPT_LUA,
      1,
      this.key(address),
      this.now(),
      LOGIN_THROTTLE.forgetAfterMs,
      ...this.schedule,
    )) as [number, number, number];
    if (allowed === 1) return { allowed: true, failures, nextDelayMs: ms };
    this.metrics.consoleLoginFailures.inc({ reason: 'throttled' });
    this.logger.warn(
      `console login from ${address} refused unchecked: ${failures} wrong token(s) in a row, next try in ${ms} ms`,
    );
    return { allowed: false, retryAfterMs: ms, failures };
  }

  async succeeded(address: string): Promise<void> {
    await this.redis.del(this.key(address));
  }

  async failed(address: string, attempt: LoginAttempt & { allowed: true }): Promise<void> {
    this.metrics.consoleLoginFailures.inc({ reason: 'wrong_token' });
    this.logger.warn(
      `console login from ${address} refused: wrong admin token (${attempt.failures} in a row, ` +
        `next try in ${attempt.nextDelayMs} ms)`,
    );
    if (isAlertBurst(attempt.failures))
      await this.alerts.notify(
        'console-login-failures',
        LOGIN_THROTTLE.alertEvery,
        `${attempt.failures} wrong admin tokens in a row at the console login from ${address}`,
      );
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'end') return;
    if (this.redis.status === 'wait') return this.redis.disconnect(); // never connected
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private key(address: string): string {
    return `${this.prefix}:console-login:${address}`;
  }
}
