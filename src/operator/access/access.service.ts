// The one door for tokens: ADMIN_TOKEN (the bootstrap and automation credential, an admin) and
// users' API tokens, presented as X-Admin-Token or `Authorization: Bearer`, each checked through
// the credential throttle. How a token may be presented follows admin-token.ts: a state-changing
// call takes the X-Admin-Token header only and never from another site; basic auth is refused.
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { UsersRepository, type User } from './users.repository';
import { fromSameSite, isStateChanging, presentedToken, tokenMatches } from './admin-token';
import { apiTokenHash, looksLikeApiToken } from './api-token';
import { CredentialThrottle, type Door } from './credential-throttle.service';
import { ADMIN_TOKEN_PRINCIPAL, type Principal } from './principal';

export type TokenAnswer =
  | { ok: true; principal: Principal | undefined }
  | { ok: false; status: 401 | 403 | 429 | 503; message: string; retryAfterMs?: number };

export function userPrincipal(user: User, via: Principal['via']): Principal {
  return { role: user.role, userId: user.id, displayName: user.displayName, email: user.email, via };
}

/** The door a request knocks at, for the throttle's metric and log. */
export function doorOf(path: string): Door {
  if (path.startsWith('/admin/queues')) return 'queue_board';
  if (path.startsWith('/health')) return 'health';
  if (path.startsWith('/metrics')) return 'metrics';
  if (path.startsWith('/docs')) return 'docs';
  if (path.startsWith('/console')) return 'console';
  return 'admin';
}

@Injectable()
export class AccessService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    readonly throttle: CredentialThrottle,
  ) {}

  /** The principal of the request's token; `principal: undefined` when it presents none. */
  async fromToken(req: Request): Promise<TokenAnswer> {
    const presented = presentedToken(req.headers);
    if (!presented) return { ok: true, principal: undefined };
    if (presented.source === 'basic')
      return { ok: false, status: 401, message: 'basic auth is not accepted: send X-Admin-Token' };
    const checked = await this.throttle.check(doorOf(req.originalUrl.split('?')[0]), req.ip, () =>
      this.principalOf(presented.token),
    );
    if (!checked.ok) return checked;
    if (isStateChanging(req.method)) {
      if (presented.source === 'bearer')
        return {
          ok: false,
          status: 401,
          message: 'state-changing admin calls take the X-Admin-Token header only',
        };
      if (!fromSameSite(req.headers))
        return {
          ok: false,
          status: 403,
          message: 'cross-site admin request refused (Origin / Sec-Fetch-Site)',
        };
    }
    return { ok: true, principal: checked.value };
  }

  /** Why a request without any credential is refused: the API is off when nothing could open it. */
  missing(): { status: 401 | 503; message: string } {
    return this.config.adminToken
      ? { status: 401, message: 'admin token missing or wrong' }
      : { status: 503, message: 'admin API disabled: set ADMIN_TOKEN to enable it' };
  }

  private async principalOf(token: string): Promise<Principal | undefined> {
    if (tokenMatches(this.config.adminToken, token)) return { ...ADMIN_TOKEN_PRINCIPAL, via: 'admin-token' };
    if (!looksLikeApiToken(token)) return undefined;
    const user = await this.users.byApiTokenHash(apiTokenHash(token));
    return user ? userPrincipal(user, 'api-token') : undefined;
  }
}
