// Sends a console page: the CSRF token for its forms, the layout, the status.
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleAuth, type ConsoleRequest } from './auth/console-auth';
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
    const p = (req as ConsoleRequest).principal;
    const user = p ? { name: p.displayName, role: p.role } : undefined;
    res
      .status(status)
      .type('html')
      .send(this.view.render(page, { ...view, csrf }, { ...ctx, csrf, user }));
  }
}
