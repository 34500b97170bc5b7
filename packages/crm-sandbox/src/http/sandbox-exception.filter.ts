// Renders every failure of a Nest route as docs/CRM-API.md §7's envelope. A 500 never
// carries the original exception; it is logged only when the sandbox logs.
import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { sendError, toSandboxError } from './error-response';
import type { SandboxRequest } from './sandbox-request';

@Catch()
export class SandboxExceptionFilter implements ExceptionFilter {
  constructor(private readonly log: boolean) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<SandboxRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    const error = toSandboxError(exception, req);
    if (this.log && error.status >= 500) console.error('[sandbox] internal error', exception);
    sendError(res, req, error);
  }
}
