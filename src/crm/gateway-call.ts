// The life of one gateway call: wait for a budget slot, call, give the slot back, and decide
// what a failure means (429: everyone pauses, the attempt is not spent; 5xx, timeout,
// connection: back off and retry; any other 4xx: final). Plain function, no Nest, no Redis.
import type { BudgetGrant } from './budget-gate';
import type { CallOptions } from './crm-gateway.service';
import type { Priority } from './rate-budget';
import { isCrmError } from './crm-errors';
import { outcomeOf, type GatewayMetrics } from './gateway-metrics';
import {
  backoffDelayMs,
  classifyFailure,
  DEFAULT_RATE_LIMIT_PAUSE_MS,
  MAX_RATE_LIMIT_PAUSES,
  provablyUnsent,
} from './retry-policy';

export interface CallDeps {
  acquire(priority: Priority): Promise<BudgetGrant>;
  /** Shared pause of every process (the CRM answered 429). */
  pause(ms: number): Promise<unknown>;
  sleep(ms: number): Promise<void>;
  random(): number;
  maxRetries: number;
  metrics: GatewayMetrics;
  onFinalFailure?(operation: string, err: unknown, opts: CallOptions): void;
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
  for (;;) {
    const settled = await attemptOnce(deps, operation, opts, fn);
    if (settled.ok) return settled.value;
    const err = settled.error;
    const kind = classifyFailure(err);
    if (kind === 'rate-limited' && pauses < MAX_RATE_LIMIT_PAUSES) {
      pauses++;
      const retryAfterMs = (err as { retryAfterMs?: number }).retryAfterMs;
      await deps.pause(retryAfterMs ?? DEFAULT_RATE_LIMIT_PAUSE_MS);
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
): Promise<Settled<T>> {
  const grant = await deps.acquire(opts.priority);
  deps.metrics.waited(grant.waitedMs);
  opts.onGranted?.(grant.waitedMs);
  let settled: Settled<T>;
  try {
    settled = { ok: true, value: await fn() };
    deps.metrics.attempt(operation, 'ok');
  } catch (error) {
    settled = { ok: false, error };
    if (isCrmError(error)) deps.metrics.attempt(operation, outcomeOf(error));
  }
  // Released as soon as the answer is in, before any backoff: the slot counts from now.
  // If Redis is unreachable the slot simply keeps counting until its lease ends.
  await grant.release().catch(() => undefined);
  return settled;
}
