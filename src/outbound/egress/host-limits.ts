// Per-host limits of the http-request action, shared by every process through Redis and apart
// from the CRM budget: at most `concurrency` requests in flight per host and at most `rate`
// started per fixed window. One atomic Lua script decides; on Redis's clock, so processes with
// skewed clocks agree. An in-flight slot is a short lease renewed by a heartbeat while its request
// runs: a killed process stops renewing, so its slots come back within `leaseMs` (seconds), not
// after the longest request. A host that stays full past a short in-process wait is not a failure:
// HostLimitedError says when to come back, and the runner defers the run durably until then.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { HostLimitedError } from '../../language/net/egress-errors';

// KEYS[1] in-flight leases (zset token -> expiry ms), KEYS[2] window counter.
// ARGV: token, leaseMs, concurrency, rate, windowMs. Returns {1} or {0, retryInMs, why}.
const ACQUIRE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, math.max(1, tonumber(first[2]) - now), 'concurrency'}
end
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
if used >= tonumber(ARGV[4]) then
  return {0, math.max(1, redis.call('PTTL', KEYS[2])), 'rate'}
end
if redis.call('INCR', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return {1}
`;

// KEYS[1] in-flight leases; ARGV: token, leaseMs. Extends a lease still held (XX: never revives one).
const RENEW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1
`;

export interface HostLimitParams {
  prefix: string;
  concurrency: number;
  rate: number;
  windowMs: number;
  /** How long a lease counts without a heartbeat (its holder was killed); renewed every third. */
  leaseMs: number;
  /** Longest a request waits in process for a slot; past it the run is deferred (HostLimitedError). */
  maxWaitMs: number;
}

/** Longest pause between two tries, so a freed slot is noticed soon. */
const MAX_POLL_MS = 250;
/** When a host's in-flight slots are all held, the deferred run looks again after this long. */
const CONCURRENCY_RETRY_MS = 1_000;

export class HostLimits {
  constructor(
    private readonly redis: Redis,
    private readonly params: HostLimitParams,
  ) {}

  /** Waits for a slot of `host`; resolves with its release. */
  async acquire(host: string, signal: AbortSignal): Promise<() => Promise<void>> {
    const p = this.params;
    const base = `${p.prefix}:egress:${host}`;
    const keys = [`${base}:inflight`, `${base}:window`];
    const token = randomUUID();
    const started = Date.now();
    for (;;) {
      const [granted, retryInMs, why] = (await this.redis.eval(
        ACQUIRE_LUA,
        2,
        ...keys,
        token,
        p.leaseMs,
        p.concurrency,
        p.rate,
        p.windowMs,
      )) as [number, number?, string?];
      if (granted === 1) return this.heartbeat(keys[0], token);
      const waited = Date.now() - started;
      if (waited + Number(retryInMs) > p.maxWaitMs || signal.aborted)
        throw new HostLimitedError(
          `host ${host} is at its ${why} limit (HTTP_ACTION_HOST_*)`,
          // A full concurrency frees when any request ends: look again soon, not at the lease's end.
          why === 'rate' ? Number(retryInMs) : Math.min(Number(retryInMs), CONCURRENCY_RETRY_MS),
        );
      await pause(Math.min(Number(retryInMs), MAX_POLL_MS), signal);
    }
  }

  /** Renews the lease every third of leaseMs until released; the release removes it. */
  private heartbeat(key: string, token: string): () => Promise<void> {
    const { leaseMs } = this.params;
    const timer = setInterval(
      () => {
        // A missed beat only shortens the lease; the next one (or the release) catches up.
        this.redis.eval(RENEW_LUA, 1, key, token, leaseMs).catch(() => undefined);
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    timer.unref();
    return async () => {
      clearInterval(timer);
      await this.redis.zrem(key, token).catch(() => undefined);
    };
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
