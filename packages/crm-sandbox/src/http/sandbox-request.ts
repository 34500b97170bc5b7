// Request-scoped data of the sandbox's HTTP layer and the decorators controllers use.
import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Scope } from '../domain/api-key-auth';
import type { ArmedFault } from '../domain/fault-injector';
import type { SandboxError } from '../domain/sandbox-error';
import type { OpContext } from '../domain/sandbox-state';

export interface SandboxRequest extends Request {
  requestId: string;
  /** Set by SandboxGateGuard once the key is authenticated and admitted. */
  opContext?: OpContext;
  /** A body that failed to parse; refused by the gate guard after auth and rate limiting. */
  bodyError?: SandboxError;
  /** An armed answer fault (lost-answer, truncated-answer, cut-connection): carried out, answer lost. */
  lostAnswer?: ArmedFault;
}

/** The scope an API route needs; every /v1 handler must declare one. */
export const RequireScope = Reflector.createDecorator<Scope>();

export const CONTROL_ROUTE = 'sandbox:control-route';
/** /_sandbox/ routes: never authenticated, rate limited, counted nor faulted. */
export const ControlRoute = () => SetMetadata(CONTROL_ROUTE, true);

/** The operation context (organization, clock, event sink) of the authenticated key. */
export const Ctx = createParamDecorator((_: unknown, ec: ExecutionContext): OpContext => {
  const ctx = ec.switchToHttp().getRequest<SandboxRequest>().opContext;
  if (!ctx) throw new Error('Ctx used on a route the gate guard did not admit');
  return ctx;
});
