// Rendering of docs/CRM-API.md §7's envelope, shared by the exception filter and the
// Express-level handlers that run before Nest (body parsing). Every response carries
// X-Request-Id: req_<id>, and error bodies quote the same id.
import { randomBytes } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import type { Response } from 'express';
import type { CrmErrorBody } from '@crm-rules/crm-contract';
import { internalError, SandboxError } from '../domain/sandbox-error';
import type { SandboxRequest } from './sandbox-request';

export function ensureRequestId(req: SandboxRequest, res: Response): string {
  if (!req.requestId) {
    req.requestId = `req_${randomBytes(12).toString('hex')}`;
    res.setHeader('X-Request-Id', req.requestId);
  }
  return req.requestId;
}

function fromStatus(status: number, req: SandboxRequest, message: string): SandboxError {
  if (status === 404)
    return new SandboxError(
      404,
      'invalid_request_error',
      'route_not_found',
      `No route ${req.method} ${req.path}`,
    );
  if (status === 413)
    return new SandboxError(413, 'invalid_request_error', 'payload_too_large', 'Request body too large');
  if (status === 400 || status === 415)
    return new SandboxError(
      400,
      'invalid_request_error',
      'validation_failed',
      'Request body is not valid JSON',
      [{ param: 'body', code: 'invalid_json', message: 'Request body is not valid JSON' }],
    );
  return status >= 500
    ? internalError()
    : new SandboxError(status, 'invalid_request_error', 'invalid_request', message);
}

/** SandboxErrors as they are, Nest/HTTP errors by status, anything else as a bare 500. */
export function toSandboxError(err: unknown, req: SandboxRequest): SandboxError {
  if (err instanceof SandboxError) return err;
  if (err instanceof HttpException) return fromStatus(err.getStatus(), req, err.message);
  const status = (err as { status?: unknown; type?: unknown } | null)?.status;
  // body-parser errors carry a status and a type such as 'entity.parse.failed'
  if (typeof status === 'number' && typeof (err as { type?: unknown }).type === 'string')
    return fromStatus(status, req, 'Bad request');
  return internalError();
}

export function sendError(res: Response, req: SandboxRequest, error: SandboxError): void {
  const body: CrmErrorBody = {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      requestId: ensureRequestId(req, res),
    },
  };
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json(body);
}
