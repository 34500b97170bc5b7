// The console's login and logout. A login attempt is throttled per client address before the
// token is even compared (login-throttle.service.ts); logout deletes the session's row.
import { Body, Controller, Get, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { tokenMatches } from '../admin-auth/admin-token';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ConsoleAuth, type ConsoleRequest } from './auth/console-auth';
import { isSameOrigin } from './auth/console-session';
import { LoginThrottle, type LoginAttempt } from './auth/login-throttle.service';
import { ConsoleResponder } from './console-responder';

@ApiExcludeController()
@Controller('console')
export class ConsoleAuthController {
  private readonly logger = new Logger(ConsoleAuthController.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: ConsoleAuth,
    private readonly throttle: LoginThrottle,
    private readonly pages: ConsoleResponder,
  ) {}

  @Get('login')
  loginForm(@Res() res: Response) {
    res.status(this.auth.enabled ? 200 : 503).send(this.loginPage());
  }

  @Post('login')
  async login(@Req() req: Request, @Res() res: Response, @Body() body: { token?: unknown }) {
    if (!this.auth.enabled) return res.status(503).send(this.loginPage());
    const address = req.ip ?? 'unknown';
    let attempt: LoginAttempt;
    try {
      attempt = await this.throttle.attempt(address);
    } catch (err) {
      // No throttle, no check: refusing is the safe side while Redis is away.
      this.logger.warn(`console login refused: throttle unavailable (Redis): ${(err as Error).message}`);
      return res.status(503).send(this.loginPage('Login is unavailable for a moment; try again shortly.'));
    }
    if (!attempt.allowed) {
      const seconds = Math.ceil(attempt.retryAfterMs / 1000);
      res.setHeader('Retry-After', String(seconds));
      return res
        .status(429)
        .send(this.loginPage(`Too many wrong tokens from this address: try again in ${seconds} s.`));
    }
    const given = typeof body?.token === 'string' ? body.token : undefined;
    if (!isSameOrigin(req.headers) || !tokenMatches(this.config.adminToken, given)) {
      await this.throttle.failed(address, attempt);
      return res.status(401).send(this.loginPage('That token is not the admin token.'));
    }
    await this.throttle.succeeded(address);
    await this.auth.startSession(req, res);
    res.redirect(303, '/console');
  }

  @Post('logout')
  async logout(@Req() req: ConsoleRequest, @Res() res: Response) {
    await this.auth.endSession(req, res);
    res.redirect(303, '/console/login');
  }

  private loginPage(error?: string): string {
    return this.pages.view.render('login', { disabled: !this.auth.enabled, error }, { title: 'Log in' });
  }
}
