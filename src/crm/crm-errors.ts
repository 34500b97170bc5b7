// Typed failures of a CRM call. Messages carry what the CRM said (or what went wrong on the
// wire) and never the API key: the key lives only in the Authorization header.
import type { CrmErrorDetail } from './crm-types';

/** The CRM answered with a non-2xx status (docs/CRM-API.md §7). */
export class CrmApiError extends Error {
  override readonly name = 'CrmApiError';
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly details?: CrmErrorDetail[];
  readonly requestId?: string;
  /** 429 and 5xx: worth another attempt; every other 4xx is final. */
  readonly retryable: boolean;
  readonly operation: string;
  /** 429 only: how long the CRM asked us to wait (Retry-After), when it said so. */
  readonly retryAfterMs?: number;

  constructor(init: {
    status: number;
    type: string;
    code: string;
    message: string;
    details?: CrmErrorDetail[];
    requestId?: string;
    operation: string;
    retryAfterMs?: number;
  }) {
    super(init.message);
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.operation = init.operation;
    this.retryAfterMs = init.retryAfterMs;
    this.retryable = init.status === 429 || init.status >= 500;
  }
}

export type CrmTransportErrorKind = 'timeout' | 'connection';

/** No HTTP answer at all: the call timed out or the connection failed. Always retryable. */
export class CrmTransportError extends Error {
  override readonly name = 'CrmTransportError';
  readonly retryable = true as const;

  constructor(
    readonly operation: string,
    readonly kind: CrmTransportErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type CrmCallError = CrmApiError | CrmTransportError;

export function isCrmError(err: unknown): err is CrmCallError {
  return err instanceof CrmApiError || err instanceof CrmTransportError;
}
