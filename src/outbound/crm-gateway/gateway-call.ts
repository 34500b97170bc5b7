// The life of one gateway call: wait for a budget slot, call, give the slot back, and decide
// what a failure means (429: everyone pauses, the attempt is not spent; 5xx, timeout,
// connection: back off and retry; any other 4xx: final). Every wait is bounded: a 429 pause by
// maxPauseMs, the budget waits of the whole call by maxWaitMs. Plain function, no Nest, no Redis.
import { BudgetWaitTimeoutError, type BudgetGrant } from './budget-gate';
import type { CallOptions } from './crm-gateway.service';
import type { Priority } from './rate-budget';
import { CrmTransportError, InvalidCrmIdError, isCrmError } from '../../language/crm-terms/crm-errors';
import { outcomeOf, type GatewayMetrics } from './gateway-metrics';
import {
  backoffDelayMs,
  classifyFailure,
  DEFAULT_RATE_LIMIT_PAUSE_MS,
  MAX_RATE_LIMIT_PAUSES,
} from './retry-policy';
import { provablyUnsent } from '../../language/crm-terms/unsent-proof';

export interface CallDeps {
  /** A slot, or BudgetWaitTimeoutError when it cannot come before `deadline` (epoch ms). */
  acquire(priority: Priority, deadline: number): Promise<BudgetGrant>;
  /** Shared pause of every process (the CRM answered 429). */
  pause(ms: number): Promise<unknown>;
  sleep(ms: number): Promise<void>;
  random(): number;
  now(): number;
  maxRetries: number;
  /** Longest 429 pause honoured: a Retry-After beyond it is capped (and reported). */
  maxPauseMs: number;
  /** Longest time one call may spend waiting for budget, over all its attempts. */
  maxWaitMs: number;
  metrics: GatewayMetrics;
  onFinalFailure?(operation: string, err: unknown, opts: CallOptions): void;
  onPauseCapped?(operation: string, askedMs: number, cappedMs: number): void;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function callWithBudget<T>(
  deps: CallDeps,
  operation: string,
  opts: CallOptions,
  fn: () => Promise<T>,
): Promise<T> {
  let retries = 0;
  let pauses = 0;
  const deadline = deps.now() + deps.maxWaitMs;
  for (;;) {
    const settled = await attemptOnce(deps, operation, opts, fn, deadline);
    if (settled.ok) return settled.value;
    const err = settled.error;
    const kind = classifyFailure(err);
    if (kind === 'rate-limited' && pauses < MAX_RATE_LIMIT_PAUSES) {
      pauses++;
      const asked = (err as { retryAfterMs?: number }).retryAfterMs ?? DEFAULT_RATE_LIMIT_PAUSE_MS;
      // A CRM (or a proxy) asking for an hour must not hold every process for an hour.
      const pauseMs = Math.min(asked, deps.maxPauseMs);
      if (asked > deps.maxPauseMs) {
        deps.metrics.pauseCapped();
        deps.onPauseCapped?.(operation, asked, pauseMs);
      }
      await deps.pause(pauseMs);
      continue; // the pause is the CRM's doing, not a failed attempt: no retry is spent
    }
    if (
      kind === 'retryable' &&
      retries < deps.maxRetries &&
      (opts.retryUnclear !== false || provablyUnsent(err))
    ) {
      retries++;
      deps.metrics.retry();
      await deps.sleep(backoffDelayMs(retries, deps.random));
      continue;
    }
    deps.metrics.failure(operation);
    deps.onFinalFailure?.(operation, err, opts);
    throw err;
  }
}

async function attemptOnce<T>(
  deps: CallDeps,
  operation: string,
  opts: CallOptions,
  fn: () => Promise<T>,
  deadline: number,
): Promise<Settled<T>> {
  let grant: BudgetGrant;
  try {
    grant = await deps.acquire(opts.priority, deadline);
  } catch (err) {
    if (!(err instanceof BudgetWaitTimeoutError)) throw err;
    deps.metrics.waitTimedOut();
    // Not sent, so safe to try again later; final here: the deadline covers the whole call.
    return {
      ok: false,
      error: new CrmTransportError(operation, 'budget_timeout', `${operation}: ${err.message}`),
    };
  }
  deps.metrics.waited(grant.waitedMs);
  opts.onGranted?.(grant.waitedMs);
  let settled: Settled<T>;
  try {
    settled = { ok: true, value: await fn() };
    deps.metrics.attempt(operation, 'ok');
  } catch (error) {
    settled = { ok: false, error };
    // An id refused by the path builder never reached the wire.
    if (isCrmError(error) && !(error instanceof InvalidCrmIdError))
      deps.metrics.attempt(operation, outcomeOf(error));
  }
  // Released as soon as the answer is in, before any backoff: the slot counts from now.
  // If Redis is unreachable the slot simply keeps counting until its lease ends.
  await grant.release().catch(() => undefined);
  return settled;
}
