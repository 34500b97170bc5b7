// Who may use the console: a server-side session (console-session.ts, a row of console_sessions)
// for every page, and for every state-changing request also a same-origin browser request carrying
// the CSRF token (double-submit, csrf-csrf, bound to the session). Express middleware ahead of the
// routes; the security headers of every answer are set here too. A session is a user's (its role
// read from the users row at every request, so a role change or a disabled user counts at once)
// or, logged in with ADMIN_TOKEN, the bootstrap admin's; the access guard then checks each
// route's least role against it (req.principal).
import { Inject, Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import { doubleCsrf, type DoubleCsrfUtilities } from 'csrf-csrf';
import type { NextFunction, Request, Response } from 'express';
import { filter, from, interval, type Observable, switchMap, take } from 'rxjs';
import { CONSOLE_CSP, securityHeaders } from '../../admin/security-headers';
import { APP_CONFIG, type AppConfig } from '../../../runtime/config/app-config';
import {
  CSRF_COOKIE,
  isSameOrigin,
  newSessionId,
  sessionIdHash,
  sessionKey,
} from '../../access/session-values';
import { ConsoleSessionsRepository } from '../../access/console-sessions.repository';
import { actorOf, type Principal } from '../../access/principal';
import { SessionPrincipals, type OpenSession } from '../../access/session-principal.service';

/** Reachable without a session: the login forms, the OIDC round trip, the static assets they need. */
const OPEN_PATHS = [/^\/console\/login(\/oidc(\/callback)?)?\/?$/, /^\/console\/assets\//];
const CONSOLE_HEADERS = securityHeaders(CONSOLE_CSP);

export type ConsoleSession = OpenSession;

export interface ConsoleRequest extends Request {
  consoleSession?: ConsoleSession;
  principal?: Principal;
}

@Injectable()
export class ConsoleAuth implements NestMiddleware {
  private readonly logger = new Logger(ConsoleAuth.name);
  private readonly fingerprint?: string;
  private readonly csrf?: DoubleCsrfUtilities;
  private readonly secure: boolean;
  readonly cookieName: string;
  /** How often a live stream re-checks its session; e2e tests shorten it. */
  streamCheckMs = 30_000;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly principals: SessionPrincipals,
  ) {
    this.secure = config.access.cookieSecure;
    this.cookieName = principals.cookieName;
    this.fingerprint = principals.fingerprint;
    if (!config.adminToken) return;
    const key = sessionKey(config.adminToken);
    this.csrf = doubleCsrf({
      getSecret: () => key.toString('hex'),
      getSessionIdentifier: (req) => String(req.cookies?.[this.cookieName] ?? ''),
      cookieName: CSRF_COOKIE,
      cookieOptions: { sameSite: 'strict', secure: this.secure, path: '/console', httpOnly: true },
      getCsrfTokenFromRequest: (req) => req.body?._csrf ?? req.headers['x-csrf-token'],
    });
  }

  get enabled(): boolean {
    return this.fingerprint !== undefined;
  }

  async use(req: ConsoleRequest, res: Response, next: NextFunction): Promise<void> {
    res.set(CONSOLE_HEADERS);
    const path = req.originalUrl.split('?')[0];
    if (OPEN_PATHS.some((p) => p.test(path))) return next();
    let session: ConsoleSession | null;
    try {
      session = await this.currentSession(req);
    } catch (err) {
      this.logger.warn(`console session not checked (database): ${(err as Error).message}`);
      res.status(503).type('text/plain').send('sessions unavailable (database); try again shortly');
      return;
    }
    if (!session) {
      if (req.method === 'GET' && !path.startsWith('/console/stream/'))
        return res.redirect(303, '/console/login');
      res.status(401).type('text/plain').send('log in first');
      return;
    }
    req.consoleSession = session;
    req.principal = session.principal;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (!isSameOrigin(req.headers) || !this.csrf!.validateRequest(req)) {
        res
          .status(403)
          .type('text/plain')
          .send('refused: the form is stale or came from another site; reload the page');
        return;
      }
    }
    next();
  }

  /** The token forms carry; sets its cookie on first use in a session. */
  csrfToken(req: Request, res: Response): string {
    return this.csrf!.generateCsrfToken(req, res);
  }

  /** Opens a session row and sets its cookie; `req.cookies` is updated so a token made now binds to it. */
  async startSession(req: Request, res: Response, userId: string | null = null): Promise<void> {
    const id = newSessionId();
    await this.sessions.open(sessionIdHash(id), this.fingerprint!, req.ip, userId);
    res.cookie(this.cookieName, id, {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.secure,
      path: '/', // __Host- requires it; the admin API ignores the cookie, Bull Board reads it
      maxAge: this.config.consoleSession.lifetimeMs,
    });
    req.cookies = { ...req.cookies, [this.cookieName]: id };
  }

  /** Deletes the session's row, so a copy of the cookie kept elsewhere stops working too. */
  async endSession(req: ConsoleRequest, res: Response): Promise<void> {
    if (req.consoleSession) await this.sessions.close(req.consoleSession.idHash);
    res.clearCookie(this.cookieName, { path: '/', secure: this.secure });
    res.clearCookie(CSRF_COOKIE, { path: '/console' });
  }

  /**
   * Emits once the request's session has ended (logout, idle, lifetime, token change), so a live
   * stream opened before does not outlive it. Does not count as activity: an open tab alone does
   * not keep a session from going idle.
   */
  sessionEnded(req: ConsoleRequest): Observable<unknown> {
    const idHash = req.consoleSession?.idHash ?? '';
    return interval(this.streamCheckMs).pipe(
      switchMap(() =>
        from(
          this.sessions.isOpen(idHash, this.fingerprint ?? '', this.config.consoleSession).catch(() => true), // a database hiccup does not end a stream; the next check decides
        ),
      ),
      filter((open) => !open),
      take(1),
    );
  }

  /** How the audit log names whoever acted: the person (principal.ts), never a secret. */
  actor(req: ConsoleRequest): string {
    return actorOf(req.principal);
  }

  private currentSession(req: Request): Promise<ConsoleSession | null> {
    return this.principals.current(req);
  }
}
