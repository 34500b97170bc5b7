// The one error type of the sandbox: everything a handler refuses becomes a
// SandboxError, and the exception filter renders it as docs/CRM-API.md §7's envelope.
import type { CrmErrorDetail } from '@crm-rules/crm-contract';

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
    readonly details?: CrmErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

export function validationFailed(details: CrmErrorDetail[]): SandboxError {
  const n = details.length;
  return new SandboxError(
    400,
    'invalid_request_error',
    'validation_failed',
    `Request failed validation: ${n} invalid field${n === 1 ? '' : 's'}`,
    details,
  );
}

/** Throws validation_failed listing every detail, if there is any. */
export function assertValid(details: CrmErrorDetail[]): void {
  if (details.length > 0) throw validationFailed(details);
}

export function notFound(resource: string, id: string, param?: string): SandboxError {
  const where = param ? ` (${param})` : '';
  return new SandboxError(
    404,
    'invalid_request_error',
    'resource_not_found',
    `No ${resource} with id '${id}' exists in this organization${where}`,
  );
}

export function conflict(code: string, message: string): SandboxError {
  return new SandboxError(409, 'invalid_request_error', code, message);
}

/** Domain rules (assignee, blocked, channel): the request was well formed but cannot be honoured. */
export function unprocessable(code: string, message: string): SandboxError {
  return new SandboxError(422, 'invalid_request_error', code, message);
}

export function internalError(): SandboxError {
  return new SandboxError(
    500,
    'api_error',
    'internal_error',
    'An internal error occurred; quote the requestId to support',
  );
}
