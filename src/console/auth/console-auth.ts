// Who may use the console: a session cookie (see console-session.ts) for every page, and for
// every state-changing request also a same-origin browser request carrying the CSRF token
// (double-submit, csrf-csrf, bound to the session). Express middleware ahead of the routes.
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { doubleCsrf, type DoubleCsrfUtilities } from 'csrf-csrf';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import {
  type ConsoleSession,
  isSameOrigin,
  issueSession,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionKey,
  verifySession,
} from './console-session';

/** Reachable without a session: the login form and the static assets it needs. */
const OPEN_PATHS = [/^\/console\/login\/?$/, /^\/console\/assets\//];

export interface ConsoleRequest extends Request {
  consoleSession?: ConsoleSession;
}

@Injectable()
export class ConsoleAuth implements NestMiddleware {
  private readonly key?: Buffer;
  private readonly csrf?: DoubleCsrfUtilities;
  private readonly secure: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.secure = (config.publicUrl ?? '').startsWith('https:');
    if (!config.adminToken) return;
    const key = (this.key = sessionKey(config.adminToken));
    this.csrf = doubleCsrf({
      getSecret: () => key.toString('hex'),
      getSessionIdentifier: (req) => String(req.cookies?.[SESSION_COOKIE] ?? ''),
      cookieName: 'crmr_console_csrf',
      cookieOptions: { sameSite: 'strict', secure: this.secure, path: '/console', httpOnly: true },
      getCsrfTokenFromRequest: (req) => req.body?._csrf ?? req.headers['x-csrf-token'],
    });
  }

  get enabled(): boolean {
    return this.key !== undefined;
  }

  use(req: ConsoleRequest, res: Response, next: NextFunction): void {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    );
    const path = req.originalUrl.split('?')[0];
    if (OPEN_PATHS.some((p) => p.test(path))) return next();
    const session = this.key ? verifySession(this.key, req.cookies?.[SESSION_COOKIE], Date.now()) : null;
    if (!session) {
      if (req.method === 'GET' && !path.startsWith('/console/stream/'))
        return res.redirect(303, '/console/login');
      res.status(401).type('text/plain').send('log in first');
      return;
    }
    req.consoleSession = session;
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

  /** Sets the session cookie; `req.cookies` is updated so a token made now binds to it. */
  startSession(req: Request, res: Response): void {
    const value = issueSession(this.key!, Date.now());
    res.cookie(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.secure,
      path: '/console',
      maxAge: SESSION_TTL_MS,
    });
    req.cookies = { ...req.cookies, [SESSION_COOKIE]: value };
  }

  endSession(res: Response): void {
    res.clearCookie(SESSION_COOKIE, { path: '/console' });
    res.clearCookie('crmr_console_csrf', { path: '/console' });
  }

  /** How the audit log names whoever acted: the session's id and address, never a secret. */
  actor(req: ConsoleRequest): string {
    return `console session ${req.consoleSession?.id.slice(0, 8) ?? '?'} from ${req.ip ?? 'unknown'}`;
  }
}
