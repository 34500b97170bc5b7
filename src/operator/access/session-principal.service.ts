// The console session a request's cookie names, and who it is: for the console's middleware and
// for Bull Board (an admin's console session opens it, no basic-auth prompt). The session row
// names its user; the user's role is read at every request, so a role change or a disabled user
// counts at once. A session without a user was opened with ADMIN_TOKEN: the bootstrap admin.
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { UsersRepository } from './users.repository';
import { userPrincipal } from './access.service';
import { ADMIN_TOKEN_PRINCIPAL, type Principal } from './principal';
import { isWellFormedSessionId, SESSION_COOKIE, sessionIdHash, tokenFingerprint } from './session-values';

export interface OpenSession {
  /** The row's key (a hash of the cookie's id). */
  idHash: string;
  principal: Principal;
}

/** The cookie's value from a raw Cookie header (Bull Board's requests skip cookie-parser). */
export function cookieValue(req: Request, name: string): unknown {
  const parsed = (req as { cookies?: Record<string, unknown> }).cookies;
  if (parsed && name in parsed) return parsed[name];
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

@Injectable()
export class SessionPrincipals {
  /** `__Host-crmr_console` when Secure (Path=/, no Domain: no sibling host can set or read it). */
  readonly cookieName: string;
  readonly fingerprint?: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly users: UsersRepository,
  ) {
    this.cookieName = config.access.cookieSecure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
    if (config.adminToken) this.fingerprint = tokenFingerprint(config.adminToken);
  }

  /** The open session of the request's cookie (marked seen now), or null. */
  async current(req: Request): Promise<OpenSession | null> {
    const id = cookieValue(req, this.cookieName);
    if (!this.fingerprint || !isWellFormedSessionId(id)) return null;
    const idHash = sessionIdHash(id);
    const open = await this.sessions.touch(idHash, this.fingerprint, this.config.consoleSession);
    if (!open) return null;
    if (open.userId === null) return { idHash, principal: { ...ADMIN_TOKEN_PRINCIPAL, via: 'session' } };
    const user = await this.users.active(open.userId);
    return user ? { idHash, principal: userPrincipal(user, 'session') } : null;
  }
}
