// Sends a console page: the CSRF token for its forms, the layout, the status.
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleAuth } from './auth/console-auth';
import { ConsoleView, type Page, type PageContext } from './console-view';

@Injectable()
export class ConsoleResponder {
  readonly view = new ConsoleView();

  constructor(private readonly auth: ConsoleAuth) {}

  send(
    req: Request,
    res: Response,
    page: Page,
    view: Record<string, unknown>,
    ctx: Omit<PageContext, 'csrf'>,
    status = 200,
  ): void {
    const csrf = this.auth.csrfToken(req, res);
    res
      .status(status)
      .type('html')
      .send(this.view.render(page, { ...view, csrf }, { ...ctx, csrf }));
  }
}
