// The shared budget core: a strict sliding-window log in Redis, per CRM organization, with two
// global FIFO queues (interactive, bulk), a guaranteed bulk share, bulk pacing, a shared 429
// pause and a cold start when the state is lost.
// Each operation is one atomic Lua script (rate-budget-scripts.ts); this class only names the
// keys and shapes the arguments. Local waiting lives in budget-gate.ts.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  CANCEL_LUA,
  ENQUEUE_LUA,
  PAUSE_LUA,
  RELEASE_LUA,
  SNAPSHOT_LUA,
  TRY_ACQUIRE_LUA,
} from './rate-budget-scripts';

export type Priority = 'interactive' | 'bulk';

export interface BudgetParams {
  limit: number;
  windowMs: number;
  /** Share (0..1) of the limit bulk keeps per window while interactive work waits. */
  bulkMinShare: number;
  /** Extra time a call keeps counting after its answer: clock-rate drift between Redis and the CRM. */
  marginMs: number;
  /** How long an unanswered call counts from its grant: the HTTP timeout plus slack. */
  leaseMs: number;
  /** Burst bulk may take at once beyond the even pace (ms of pace credit); interactive is never paced. */
  bulkToleranceMs: number;
  /** A process that has not touched the budget for this long is presumed dead. */
  aliveTtlMs: number;
  /** When the state is missing in Redis, keep the budget closed for one window (see TRY_ACQUIRE_LUA). */
  coldStart: boolean;
}

export const DEFAULT_MARGIN_MS = 10;
export const DEFAULT_ALIVE_TTL_MS = 10_000;

export function defaultBudgetParams(
  budget: { limit: number; windowMs: number; bulkMinShare: number },
  timeoutMs: number,
  coldStart = true,
): BudgetParams {
  return {
    ...budget,
    marginMs: DEFAULT_MARGIN_MS,
    leaseMs: timeoutMs + 1_000,
    bulkToleranceMs: Math.max(1, budget.windowMs * 0.01),
    aliveTtlMs: DEFAULT_ALIVE_TTL_MS,
    coldStart,
  };
}

/**
 * Of the tickets offered, the first `granted` got a slot. The next one (if any) was unknown
 * (`lost`: this process looked dead and its waiters were dropped) or may retry in `waitMs`.
 */
export interface TryAcquireResult {
  granted: number;
  lost: boolean;
  waitMs: number;
  /** This call found the state missing and closed the budget for `waitMs` (one window). */
  coldStart: boolean;
}

/** Raw shared state, as read atomically: the input of the ETA maths in budget-math.ts. */
export interface BudgetState {
  now: number;
  /** Live log entries (the calls counting in the current window), ascending. */
  scores: number[];
  bulkUsed: number;
  waitingInteractive: number;
  waitingBulk: number;
  /** Epoch ms until which nobody calls: a CRM 429, or a cold start (whichever ends later). */
  pausedUntil: number;
  bulkTat: number;
}

/** Never the key itself in Redis, logs or metrics: a short hash names what belongs to a key. */
export function apiKeyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

/**
 * Whose budget this is. The CRM limits an organization (docs/CRM-API.md (assumptions)), and the
 * API gives no way to learn a key's organization, so CRM_ORGANIZATION_ID names it; without it
 * each key is its own scope (two keys of one organization would then not share a budget).
 */
export function crmScope(crm: { organizationId?: string; apiKey: string }): string {
  return crm.organizationId ? `org-${crm.organizationId}` : `key-${apiKeyHash(crm.apiKey)}`;
}

export function budgetKeyPrefix(redisPrefix: string, scope: string): string {
  return `${redisPrefix}:crm-budget:{${scope}}`;
}

const CLASS: Record<Priority, 'i' | 'b'> = { interactive: 'i', bulk: 'b' };
const KEY_NAMES = ['log', 'bulk', 'qi', 'qb', 'seq', 'alive', 'pause', 'tat', 'lastb', 'epoch'];

type Script = (...args: (string | number)[]) => Promise<unknown>;

export class RateBudget {
  private readonly keys: string[];
  private readonly scripts: Record<
    'enqueue' | 'tryAcquire' | 'release' | 'cancel' | 'pause' | 'snapshot',
    Script
  >;
  private readonly keyTtlMs: number;

  /** `clock` is for tests of the maths against real Redis; production uses Redis TIME. */
  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
    readonly params: BudgetParams,
    private readonly clock?: () => number,
  ) {
    this.keys = KEY_NAMES.map((name) => `${keyPrefix}:${name}`);
    this.keyTtlMs = Math.ceil(2 * (params.windowMs + params.leaseMs) + 600_000);
    const define = (name: string, lua: string): Script => {
      const command = `crmBudget_${name}`;
      if (!(command in redis)) redis.defineCommand(command, { numberOfKeys: KEY_NAMES.length, lua });
      const fn = (redis as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[command];
      return (...args) => fn.call(redis, ...this.keys, ...args);
    };
    this.scripts = {
      enqueue: define('enqueue', ENQUEUE_LUA),
      tryAcquire: define('tryAcquire', TRY_ACQUIRE_LUA),
      release: define('release', RELEASE_LUA),
      cancel: define('cancel', CANCEL_LUA),
      pause: define('pause', PAUSE_LUA),
      snapshot: define('snapshot', SNAPSHOT_LUA),
    };
  }

  private now(): string {
    return this.clock ? String(this.clock()) : '';
  }

  async enqueue(ticket: string, priority: Priority, processId: string): Promise<number> {
    const { aliveTtlMs } = this.params;
    const args = [this.now(), ticket, CLASS[priority], processId, aliveTtlMs, this.keyTtlMs];
    return Number(await this.scripts.enqueue(...args));
  }

  /** Offers this process's oldest waiters of one class, in order; one round trip for a burst. */
  async tryAcquire(tickets: string[], priority: Priority, processId: string): Promise<TryAcquireResult> {
    const p = this.params;
    const shareSlots = Math.floor(p.bulkMinShare * p.limit);
    const interval = p.windowMs / p.limit;
    const shareInterval = shareSlots > 0 ? p.windowMs / shareSlots : 0;
    const [granted, waitMs, lost, cold] = (await this.scripts.tryAcquire(
      ...[this.now(), CLASS[priority], processId, p.aliveTtlMs, this.keyTtlMs],
      ...[p.limit, p.windowMs, p.marginMs, shareSlots, interval, p.bulkToleranceMs, p.leaseMs, shareInterval],
      p.coldStart ? 1 : 0,
      ...tickets,
    )) as [number, number, number, number];
    return {
      granted: Number(granted),
      waitMs: Number(waitMs),
      lost: Number(lost) === 1,
      coldStart: Number(cold) === 1,
    };
  }

  async release(ticket: string, priority: Priority): Promise<void> {
    await this.scripts.release(this.now(), ticket, CLASS[priority], this.keyTtlMs);
  }

  async cancel(ticket: string, priority: Priority): Promise<void> {
    await this.scripts.cancel(this.now(), ticket, CLASS[priority]);
  }

  /** Every process stops calling until now + pauseMs (never shortens a longer pause). */
  async pause(pauseMs: number): Promise<number> {
    return Number(await this.scripts.pause(this.now(), Math.max(0, Math.ceil(pauseMs))));
  }

  async state(): Promise<BudgetState> {
    const raw = (await this.scripts.snapshot(this.now(), this.params.windowMs, this.params.marginMs)) as (
      string | number
    )[];
    const [now, bulkUsed, qi, qb, pausedUntil, tat, epoch, ...scores] = raw.map(Number);
    // A missing state will be met cold by the next call: one window closed from now.
    const coldUntil =
      epoch < 0 && this.params.coldStart ? now + this.params.windowMs + this.params.marginMs : epoch;
    return {
      now,
      scores,
      bulkUsed,
      waitingInteractive: qi,
      waitingBulk: qb,
      pausedUntil: Math.max(pausedUntil, coldUntil),
      bulkTat: tat,
    };
  }
}
