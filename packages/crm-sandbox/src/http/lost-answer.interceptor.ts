// The answer faults: the request is carried out in full (the write is applied, its webhooks
// emitted), then the caller never learns it properly:
// - `lost-answer`: with `latencyMs` the answer comes that late (past the caller's timeout);
//   without, a 502 from a proxy that lost the upstream answer;
// - `truncated-answer`: the 2xx status line and headers arrive with half of the body, framed as
//   complete (a proxy that cut the body short): the caller cannot read it;
// - `cut-connection`: the connection is closed without any answer (a proxy cut after the
//   request was written).
// These are outcomes a caller cannot tell from a failure, which at-most-once writes must survive.
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';
import { mergeMap, NEVER, type Observable } from 'rxjs';
import { SandboxError } from '../domain/sandbox-error';
import type { SandboxRequest } from './sandbox-request';

@Injectable()
export class LostAnswerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<SandboxRequest>();
    const fault = req.lostAnswer;
    if (!fault) return next.handle();
    if (fault.kind === 'truncated-answer' || fault.kind === 'cut-connection') {
      const res = context.switchToHttp().getResponse<Response>();
      const status =
        (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ??
        (req.method === 'POST' ? 201 : 200);
      return next.handle().pipe(
        mergeMap((answer) => {
          cutAnswer(res, fault.kind === 'truncated-answer' ? status : undefined, answer);
          // The answer is gone with the connection: nothing more for Nest to send.
          return NEVER;
        }),
      );
    }
    return next.handle().pipe(
      mergeMap(async (answer) => {
        if (fault.latencyMs === undefined)
          throw new SandboxError(502, 'api_error', 'bad_gateway', 'injected fault: the answer was lost');
        await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
        return answer;
      }),
    );
  }
}

/**
 * With a status: the 2xx head and the first half of the body, framed as complete (Content-Length of
 * the half: a proxy that cut the body and closed the message cleanly, so the caller reads a body
 * that is not JSON). Without: the connection closed, no answer at all.
 */
function cutAnswer(res: Response, status: number | undefined, answer: unknown): void {
  if (status !== undefined) {
    const body = Buffer.from(JSON.stringify(answer ?? null));
    const half = body.subarray(0, Math.floor(body.length / 2));
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(half.length) });
    res.end(half);
    return;
  }
  res.socket?.destroy();
  // Logged (request-id.middleware.ts) as carried out but `unanswered`.
  res.end();
}
