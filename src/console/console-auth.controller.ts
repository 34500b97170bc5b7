import { Body, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { tokenMatches } from '../admin/admin-token';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ConsoleAuth } from './auth/console-auth';
import { isSameOrigin } from './auth/console-session';
import { ConsoleResponder } from './console-responder';

@ApiExcludeController()
@Controller('console')
export class ConsoleAuthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: ConsoleAuth,
    private readonly pages: ConsoleResponder,
  ) {}

  @Get('login')
  loginForm(@Res() res: Response) {
    res.status(this.auth.enabled ? 200 : 503).send(this.loginPage());
  }

  @Post('login')
  login(@Req() req: Request, @Res() res: Response, @Body() body: { token?: unknown }) {
    if (!this.auth.enabled) return res.status(503).send(this.loginPage());
    const given = typeof body?.token === 'string' ? body.token : undefined;
    if (!isSameOrigin(req.headers) || !tokenMatches(this.config.adminToken, given)) {
      return res.status(401).send(this.loginPage('That token is not the admin token.'));
    }
    this.auth.startSession(req, res);
    res.redirect(303, '/console');
  }

  @Post('logout')
  logout(@Res() res: Response) {
    this.auth.endSession(res);
    res.redirect(303, '/console/login');
  }

  private loginPage(error?: string): string {
    return this.pages.view.render('login', { disabled: !this.auth.enabled, error }, { title: 'Log in' });
  }
}
