// Pure retry maths: which failures deserve another attempt, how long to back off, and how
// to read the CRM's Retry-After header. No I/O, so it is tested without clocks.
import { CrmApiError, CrmTransportError, isCrmError } from '../../language/crm-terms/crm-errors';

export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 10_000;
/** Used when a 429 carries no usable Retry-After: one second is the CRM's smallest unit. */
export const DEFAULT_RATE_LIMIT_PAUSE_MS = 1_000;
/** A 429 pause does not spend retry attempts, but a CRM that never stops answering 429 must not loop forever. */
export const MAX_RATE_LIMIT_PAUSES = 20;

export type FailureClass = 'rate-limited' | 'retryable' | 'final';

/** Retryability is the error's own (`retryable`); a 429 is set apart because it pauses everyone. */
export function classifyFailure(err: unknown): FailureClass {
  if (!isCrmError(err)) return 'final';
  if (err instanceof CrmApiError && err.status === 429) return 'rate-limited';
  // Retryable for the job, not here: the budget deadline already covers every attempt of the call.
  if (err instanceof CrmTransportError && err.kind === 'budget_timeout') return 'final';
  return err.retryable ? 'retryable' : 'final';
}

/**
 * Exponential backoff with full jitter (a uniform draw in [0, min(cap, base * 2^(attempt-1))]):
 * full jitter spreads the retries of many processes that failed together.
 * `attempt` is 1 for the first retry.
 */
export function backoffDelayMs(
  attempt: number,
  random: () => number = Math.random,
  baseMs = BACKOFF_BASE_MS,
  capMs = BACKOFF_CAP_MS,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 10.2.3). Returns milliseconds
 * to wait from `nowMs`, or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // An HTTP date always names a day and a month: anything else (e.g. "-3") is unreadable.
  if (!/[A-Za-z]{3}/.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
