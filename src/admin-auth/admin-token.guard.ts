import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { checkAdminRequest, type AdminDecision } from './admin-token';

const EXCEPTIONS = {
  401: UnauthorizedException,
  403: ForbiddenException,
  503: ServiceUnavailableException,
} as const;

/** Throws the HTTP error of a refused decision; kept apart so other guards (a console session) can reuse it. */
export function enforce(decision: AdminDecision): true {
  if (decision.ok) return true;
  throw new EXCEPTIONS[decision.status](decision.message);
}

/** The admin API's guard: the token as X-Admin-Token (or Bearer on read-only routes); see admin-token.ts. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    return enforce(checkAdminRequest(req, this.config.adminToken, { allowBasic: false }));
  }
}
