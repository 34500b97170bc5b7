// The console's login and logout. A login (admin token, or a local account's email and password)
// goes through the one credential throttle (admin-auth/credential-throttle.service.ts) before
// anything is compared; logout deletes the session's row. Single sign-on: console-oidc.controller.ts.
import { Body, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { tokenMatches } from '../access/admin-token';
import { CredentialThrottle } from '../access/credential-throttle.service';
import { MinRole } from '../roles/min-role.decorator';
import { verifyPassword } from '../access/password';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { UsersRepository } from '../access/users.repository';
import { ConsoleAuth, type ConsoleRequest } from './auth/console-auth';
import { isSameOrigin } from '../access/session-values';
import { ConsoleResponder } from './console-responder';

type LoginBody = { token?: unknown; email?: unknown; password?: unknown };
/** What a login found: a user's id, or null for the admin token. */
type LoggedIn = { userId: string | null };

@ApiExcludeController()
@Controller('console')
export class ConsoleAuthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: ConsoleAuth,
    private readonly throttle: CredentialThrottle,
    private readonly users: UsersRepository,
    private readonly pages: ConsoleResponder,
  ) {}

  @MinRole('public')
  @Get('login')
  loginForm(@Res() res: Response) {
    res.status(this.auth.enabled ? 200 : 503).send(this.loginPage());
  }

  @MinRole('public')
  @Post('login')
  async login(@Req() req: Request, @Res() res: Response, @Body() body: LoginBody) {
    if (!this.auth.enabled) return res.status(503).send(this.loginPage());
    const checked = await this.throttle.check('console', req.ip, () => this.verify(req, body));
    if (!checked.ok) {
      if (checked.status === 429) {
        const seconds = Math.ceil(checked.retryAfterMs / 1000);
        res.setHeader('Retry-After', String(seconds));
        return res
          .status(429)
          .send(this.loginPage(`Too many wrong logins from this address: try again in ${seconds} s.`));
      }
      if (checked.status === 503)
        return res.status(503).send(this.loginPage('Login is unavailable for a moment; try again shortly.'));
      const what =
        typeof body?.token === 'string' ? 'That token is not the admin token.' : 'Wrong email or password.';
      return res.status(401).send(this.loginPage(what));
    }
    if (checked.value.userId) await this.users.loggedIn(checked.value.userId);
    await this.auth.startSession(req, res, checked.value.userId);
    res.redirect(303, '/console');
  }

  @MinRole('viewer')
  @Post('logout')
  async logout(@Req() req: ConsoleRequest, @Res() res: Response) {
    await this.auth.endSession(req, res);
    res.redirect(303, '/console/login');
  }

  /** The login's principal, or undefined (counted as a failure by the throttle). */
  private async verify(req: Request, body: LoginBody): Promise<LoggedIn | undefined> {
    if (!isSameOrigin(req.headers)) return undefined;
    if (typeof body?.token === 'string')
      return tokenMatches(this.config.adminToken, body.token) ? { userId: null } : undefined;
    if (typeof body?.email !== 'string' || typeof body?.password !== 'string') return undefined;
    const user = await this.users.localLogin(body.email.trim());
    // A missing account costs the same scrypt as a wrong password: no timing says which emails exist.
    const ok = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
    return ok && user ? { userId: user.id } : undefined;
  }

  private loginPage(error?: string): string {
    return this.pages.view.render(
      'login',
      { disabled: !this.auth.enabled, error, oidc: this.config.access.oidc !== undefined },
      { title: 'Log in' },
    );
  }
}

/** A hash of nothing anyone knows, with the current parameters. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
