// Typed failures of a CRM call. Messages carry what the CRM said (or what went wrong on the
// wire) and never the API key: the key lives only in the Authorization header.
import type { CrmErrorDetail } from '@crm-rules/crm-contract';

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

/**
 * A path id that is not a uuid (docs/CRM-API.md §4 rule 2) is refused before any request: an id
 * such as `..` from a webhook would otherwise turn DELETE /v1/contacts/{id}/tags/{tagId} into
 * DELETE /v1/tags/{tagId}. Final, like the CRM's own 400 for a malformed id.
 */
export class InvalidCrmIdError extends CrmApiError {
  constructor(operation: string, param: string, value: unknown) {
    const shown = JSON.stringify(String(value).slice(0, 40));
    super({
      status: 400,
      type: 'invalid_request_error',
      code: 'invalid_id',
      message: `${operation}: ${param} ${shown} is not a uuid; nothing was sent to the CRM`,
      operation,
    });
  }
}

/**
 * timeout / connection: no HTTP answer. budget_timeout: the call never left, because its wait for
 * a budget slot would have passed CRM_BUDGET_MAX_WAIT_MS (the job is retried later instead).
 */
export type CrmTransportErrorKind = 'timeout' | 'connection' | 'budget_timeout';

/** No HTTP answer at all: the call timed out, the connection failed or it was never sent. Always retryable. */
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

/**
 * The CRM answered 2xx but its body could not be read (cut short by a proxy or a dropped
 * connection, not JSON, or the timeout fired while it streamed in). The write was accepted: the
 * status line is the CRM's word. Not a CrmCallError on purpose, so the gateway never repeats the
 * call; an at-most-once action records it as applied (src/language/catalogue/write-verdict.ts).
 */
export class CrmUnreadableAnswerError extends Error {
  override readonly name = 'CrmUnreadableAnswerError';

  constructor(
    readonly operation: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: the CRM answered ${status} but its body could not be read`, options);
  }
}

export type CrmCallError = CrmApiError | CrmTransportError;

export function isCrmError(err: unknown): err is CrmCallError {
  return err instanceof CrmApiError || err instanceof CrmTransportError;
}
