// Pure: how a failed attempt at processing a stored event is described and what happens next.
import { CrmApiError, CrmTransportError } from '../../language/crm-terms/crm-errors';

export interface EventFailure {
  /** The same error would come back on every attempt: do not spend more attempts (or CRM calls). */
  permanent: boolean;
  /** What an operator reads in `last_error` (never a secret: CRM messages carry no API key). */
  message: string;
}

export function describeEventFailure(err: unknown): EventFailure {
  if (err instanceof CrmApiError) {
    const request = err.requestId ? ` (request ${err.requestId})` : '';
    return {
      permanent: !err.retryable,
      message: `CRM ${err.operation} answered ${err.status} ${err.code}: ${err.message}${request}`,
    };
  }
  if (err instanceof CrmTransportError) {
    return { permanent: false, message: `CRM ${err.operation} ${err.kind}: ${err.message}` };
  }
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  // SQLSTATE class 22: the payload's data is invalid for Postgres; it will be on every attempt.
  if (typeof e?.code === 'string' && e.code.startsWith('22')) {
    return {
      permanent: true,
      message: `Postgres refused the event's data (${e.code}): ${String(e.message)}`,
    };
  }
  const name = typeof e?.name === 'string' ? `${e.name}: ` : '';
  return { permanent: false, message: `${name}${String(e?.message ?? err)}` };
}

/** After a failed attempt (`attempts` counts it): try again later, or end the event `failed`. */
export function afterFailedAttempt(
  attempts: number,
  maxAttempts: number,
  permanent: boolean,
): 'retry' | 'fail' {
  return permanent || attempts >= maxAttempts ? 'fail' : 'retry';
}
