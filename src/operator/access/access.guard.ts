// Every Nest route's check (APP_GUARD): the least role the route declares (@MinRole) against the
// request's principal: the console's session (set by the console's middleware) or a token
// (access.service.ts). A route that declares nothing is refused, so a new route cannot be open by
// omission; the route × role test lists every route with its declaration.
import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  HttpException,
  Injectable,
  Logger,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AccessService } from './access.service';
import { MIN_ROLE } from '../roles/min-role.decorator';
import type { WithPrincipal } from './principal';
import { allows, type Role, type RouteAccess } from '../roles/roles';

@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const needed = this.reflector.getAllAndOverride<RouteAccess | undefined>(MIN_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const req = context.switchToHttp().getRequest<Request & WithPrincipal>();
    if (!needed) {
      this.logger.error(`${req.method} ${req.path}: the route declares no role (@MinRole); refused`);
      throw new ForbiddenException('this route declares no role');
    }
    if (needed === 'public') return true;
    await authenticate(this.access, req, context.switchToHttp().getResponse<Response>());
    return requireRole(req, needed);
  }
}

/**
 * Sets req.principal from the request's token unless a session already did; throws 401/429/503
 * (Retry-After on 429) when the token is missing, wrong or not checkable. For the guard, and for
 * a public route with a detail level behind a credential (/health?detail=full).
 */
export async function authenticate(
  access: AccessService,
  req: Request & WithPrincipal,
  res: Response,
): Promise<void> {
  if (req.principal) return;
  const answer = await access.fromToken(req);
  if (!answer.ok) {
    if (answer.retryAfterMs !== undefined)
      res.setHeader('Retry-After', String(Math.ceil(answer.retryAfterMs / 1000)));
    throw new HttpException(answer.message, answer.status);
  }
  if (!answer.principal) {
    const missing = access.missing();
    throw new HttpException(missing.message, missing.status);
  }
  req.principal = answer.principal;
}

/** For a choice inside a route (a forced replay is an admin's): throws 403 below `needed`. */
export function requireRole(req: WithPrincipal, needed: Role | RouteAccess): true {
  const role = req.principal?.role;
  if (!role || !allows(role, needed))
    throw new ForbiddenException(`this needs the ${needed} role; you are ${role ?? 'nobody'}`);
  return true;
}
