// Single sign-on: GET /console/login/oidc sends the browser to the provider (PKCE, state, nonce in
// a signed cookie), GET /console/login/oidc/callback checks the answer (oidc-sign-in.service.ts),
// creates or updates the user from the claims (role from OIDC_ROLE_MAP / OIDC_EMAIL_DOMAIN_ROLES;
// none: refused) and opens a session like any login. A failed callback counts at the one
// credential throttle like a wrong password.
import { Controller, Get, Inject, Logger, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CredentialThrottle } from '../access/credential-throttle.service';
import { MinRole } from '../roles/min-role.decorator';
import { sessionKey } from '../access/session-values';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { UsersRepository } from '../access/users.repository';
import { ConsoleAuth } from './auth/console-auth';
import { OIDC_COOKIE, OIDC_PENDING_MS, openPending, sealPending } from './auth/oidc-pending';
import { OidcSignIn } from './auth/oidc-sign-in.service';
import { ConsoleResponder } from './console-responder';

@ApiExcludeController()
@MinRole('public')
@Controller('console/login/oidc')
export class ConsoleOidcController {
  private readonly logger = new Logger(ConsoleOidcController.name);
  private readonly key?: Buffer;
  private readonly cookieName: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcSignIn,
    private readonly auth: ConsoleAuth,
    private readonly users: UsersRepository,
    private readonly throttle: CredentialThrottle,
    private readonly pages: ConsoleResponder,
  ) {
    if (config.adminToken) this.key = sessionKey(config.adminToken);
    this.cookieName = config.access.cookieSecure ? `__Host-${OIDC_COOKIE}` : OIDC_COOKIE;
  }

  @Get()
  async start(@Req() req: Request, @Res() res: Response) {
    if (!this.oidc.enabled || !this.key) return this.refuse(res, 404, 'Single sign-on is not configured.');
    const redirectUri =
      this.config.access.oidc!.redirectUri ??
      `${req.protocol}://${req.get('host')}/console/login/oidc/callback`;
    let started: Awaited<ReturnType<OidcSignIn['start']>>;
    try {
      started = await this.oidc.start(redirectUri);
    } catch {
      return this.refuse(res, 503, 'The single sign-on provider cannot be reached; try again shortly.');
    }
    // Lax, not Strict: the provider's redirect back is a cross-site navigation.
    res.cookie(this.cookieName, sealPending(this.key, started.pending), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.access.cookieSecure,
      path: '/',
      maxAge: OIDC_PENDING_MS,
    });
    res.redirect(303, started.url);
  }

  @Get('callback')
  async callback(@Req() req: Request, @Res() res: Response) {
    if (!this.oidc.enabled || !this.key) return this.refuse(res, 404, 'Single sign-on is not configured.');
    const pending = openPending(this.key, req.cookies?.[this.cookieName]);
    res.clearCookie(this.cookieName, { path: '/', secure: this.config.access.cookieSecure });
    if (!pending) return this.refuse(res, 400, 'That sign-in expired or did not start here; try again.');
    const callbackUrl = new URL(pending.redirectUri);
    callbackUrl.search = new URL(req.originalUrl, 'http://x').search;
    let refusal: { status: number; text: string } | undefined;
    const checked = await this.throttle.check('console', req.ip, async () => {
      try {
        const who = await this.oidc.finish(callbackUrl, pending);
        if (!who.role) {
          this.logger.warn(`OIDC sign-in of ${who.email} refused: no role maps from its claims`);
          refusal = { status: 403, text: 'Your account has no role in this console: ask an admin.' };
          return undefined;
        }
        const user = await this.users.upsertOidc(who.subject, who.email, who.displayName, who.role);
        if (!user)
          refusal = {
            status: 403,
            text: 'That account is disabled, or its email belongs to a local account.',
          };
        return user;
      } catch (err) {
        this.logger.warn(`OIDC sign-in refused: ${(err as Error).message}`);
        return undefined;
      }
    });
    if (!checked.ok) {
      if (refusal) return this.refuse(res, refusal.status, refusal.text);
      return this.refuse(res, checked.status, 'Single sign-on failed; try again.');
    }
    await this.auth.startSession(req, res, checked.value.id);
    // A page, not a redirect: the session cookie is SameSite=Strict, and a redirect chain begun
    // at the provider is cross-site, so the browser would not send it to /console yet.
    res
      .status(200)
      .type('html')
      .send(this.pages.view.render('signed-in', { name: checked.value.displayName }, { title: 'Signed in' }));
  }

  private refuse(res: Response, status: number, error: string) {
    res
      .status(status)
      .type('html')
      .send(
        this.pages.view.render(
          'login',
          { error, oidc: this.oidc.enabled, disabled: !this.auth.enabled },
          { title: 'Log in' },
        ),
      );
  }
}
