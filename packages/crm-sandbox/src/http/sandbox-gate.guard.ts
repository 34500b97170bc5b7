// The gate every /v1 request passes, in this order: count the call, authenticate (401),
// injected 429, rate limit (429), scope (403), injected latency, injected 500, injected 422, then a
// body that failed to parse (400). A 401 is
// refused before the rate limiter, and a 429 is never logged, so neither costs budget.
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { requireScope } from '../domain/api-key-auth';
import { internalError, SandboxError, unprocessable } from '../domain/sandbox-error';
import { rateLimitMessage, retryAfterSeconds } from '../domain/sliding-window-log';
import { SANDBOX_RUNTIME, SandboxRuntime } from '../sandbox-runtime';
import { CONTROL_ROUTE, RequireScope, type SandboxRequest } from './sandbox-request';

function tooManyRequests(message: string, retryAfterSec: number): SandboxError {
  return new SandboxError(429, 'rate_limit_error', 'rate_limit_exceeded', message, undefined, {
    'Retry-After': String(retryAfterSec),
  });
}

@Injectable()
export class SandboxGateGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(SANDBOX_RUNTIME) private readonly runtime: SandboxRuntime,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(CONTROL_ROUTE, targets)) return true;
    const req = context.switchToHttp().getRequest<SandboxRequest>();
    const pattern: string = req.route?.path ?? req.path;
    this.runtime.countCall(`${req.method} ${pattern}`);
    const scope = this.reflector.getAllAndOverride(RequireScope, targets);
    if (!scope) throw internalError(); // a /v1 handler without a declared scope is a bug

    const key = this.runtime.authenticate(req.headers.authorization);
    const { limit, windowMs } = this.runtime.options.rateLimit;
    const storm = this.runtime.faults.takeForRequest('rate429', req.method, pattern);
    if (storm) {
      const seconds = storm.retryAfterSec ?? 1;
      throw tooManyRequests(rateLimitMessage(limit, windowMs, seconds), seconds);
    }
    const admission = this.runtime.limiter.tryAcquire(key.key, this.runtime.now().getTime());
    if (!admission.admitted) {
      const seconds = retryAfterSeconds(admission.retryAfterMs);
      throw tooManyRequests(rateLimitMessage(limit, windowMs, seconds), seconds);
    }
    requireScope(key, scope);

    const slow = this.runtime.faults.takeForRequest('latency', req.method, pattern);
    if (slow) await new Promise((resolve) => setTimeout(resolve, slow.latencyMs ?? 1000));
    if (this.runtime.faults.takeForRequest('error500', req.method, pattern))
      throw new Error('injected fault: error500');
    const refusal = this.runtime.faults.takeForRequest('refuse422', req.method, pattern);
    if (refusal)
      throw unprocessable(
        refusal.code ?? 'outside_messaging_window',
        'injected refusal: the CRM refused this request',
      );
    if (req.bodyError) throw req.bodyError;
    req.lostAnswer =
      this.runtime.faults.takeForRequest('lost-answer', req.method, pattern) ??
      this.runtime.faults.takeForRequest('truncated-answer', req.method, pattern) ??
      this.runtime.faults.takeForRequest('cut-connection', req.method, pattern);

    const org = this.runtime.state.orgs.get(key.orgId);
    if (!org) throw internalError();
    req.opContext = this.runtime.context(org, key);
    return true;
  }
}
