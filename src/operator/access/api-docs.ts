// The OpenAPI docs (/docs, /docs-json, /docs-yaml): served only with API_DOCS (off with
// NODE_ENV=production) and then only to a viewer or above: a console session, or a token through
// the one door (throttled like every credential).
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../runtime/config/app-config';
import { AccessService } from './access.service';
import { SessionPrincipals } from './session-principal.service';

const DOCS_PATH = /^\/docs(-json|-yaml)?(\/|$)/;

export function mountApiDocs(app: INestApplication, config: AppConfig): void {
  if (!config.access.apiDocs) return;
  const access = app.get(AccessService);
  const sessions = app.get(SessionPrincipals);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!DOCS_PATH.test(req.path)) return next();
    void (async () => {
      if (await sessions.current(req)) return next();
      const answer = await access.fromToken(req);
      if (!answer.ok) return void res.status(answer.status).type('text/plain').send(answer.message);
      if (!answer.principal) {
        const missing = access.missing();
        return void res.status(missing.status).type('text/plain').send(missing.message);
      }
      next();
    })().catch(
      () => void res.status(503).type('text/plain').send('credential check unavailable; try again shortly'),
    );
  });
  SwaggerModule.setup(
    'docs',
    app,
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('CRM rules runner')
        .setDescription(
          "Admin and operations API. Admin routes take X-Admin-Token (ADMIN_TOKEN or a user's API token); " +
            'read-only routes also `Authorization: Bearer`. Each route needs a role: viewer, operator or admin.',
        )
        .addApiKey({ type: 'apiKey', name: 'X-Admin-Token', in: 'header' }, 'admin')
        .build(),
    ),
  );
}
