// What proves a failed CRM call never reached it: the one test an at-most-once write (a message)
// must pass before it is tried again without a lookup. Pure, on the CRM's typed errors; the
// gateway's retry maths (outbound/crm-gateway/retry-policy.ts), the runner's failure path and the
// write verdict (language/catalogue/write-verdict.ts) share it.
import { CrmApiError, CrmTransportError } from './crm-errors';

/** Connection failures that happen before a request reaches the CRM. */
const UNSENT_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Whether the failure proves the CRM did not apply the call: a 429 (refused before handling), a
 * connection that was never established, or a call that never left because its wait for budget
 * ran out. A timeout, a 5xx or a reset mid-answer prove nothing.
 */
export function provablyUnsent(err: unknown): boolean {
  if (err instanceof CrmApiError) return err.status === 429;
  if (err instanceof CrmTransportError && err.kind === 'budget_timeout') return true;
  if (!(err instanceof CrmTransportError) || err.kind !== 'connection') return false;
  const code = (err.cause as { cause?: { code?: string }; code?: string } | undefined)?.cause?.code;
  return code !== undefined && UNSENT_CONNECTION_CODES.has(code);
}
