// The `lost-answer` fault: the request is carried out in full (the write is applied, its
// webhooks emitted), then the caller never learns it. With `latencyMs` the answer comes that
// late (past the caller's timeout); without, a 502 from a proxy that lost the upstream answer.
// This is the outcome a caller cannot tell from a failure, which at-most-once writes must survive.
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { mergeMap, type Observable } from 'rxjs';
import { SandboxError } from '../domain/sandbox-error';
import type { SandboxRequest } from './sandbox-request';

@Injectable()
export class LostAnswerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const fault = context.switchToHttp().getRequest<SandboxRequest>().lostAnswer;
    if (!fault) return next.handle();
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
