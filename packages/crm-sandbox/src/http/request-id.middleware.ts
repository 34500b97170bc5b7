// Plain Express middleware registered before Nest's router and the JSON parser, so even
// a request that fails to parse gets an id and the envelope of section 7.
import type { NextFunction, Request, Response } from 'express';
import { ensureRequestId, toSandboxError } from './error-response';
import type { SandboxRequest } from './sandbox-request';

export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  ensureRequestId(req as SandboxRequest, res);
  next();
}

/**
 * Error handler placed right after the body parser. The refusal is deferred to the gate
 * guard, so a malformed body is still counted, authenticated and rate limited first.
 */
export function bodyParserErrorHandler(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(err);
  const sreq = req as SandboxRequest;
  sreq.bodyError = toSandboxError(err, sreq);
  sreq.body = undefined;
  next();
}

/**
 * With `log: true`: one line per request, without headers (the Authorization header stays out of
 * logs). A request whose caller went away before the answer (its timeout) was still carried out:
 * it is logged when the handler answers, marked `unanswered`, since 'finish' never comes for it.
 */
export function requestLogMiddleware(req: Request, res: Response, next: NextFunction): void {
  const started = Date.now();
  let logged = false;
  const log = (note: string) => {
    if (logged) return;
    logged = true;
    const id = (req as SandboxRequest).requestId;
    console.log(
      `[sandbox] ${req.method} ${req.path} ${res.statusCode} ${Date.now() - started}ms ${id}${note}`,
    );
  };
  res.on('finish', () => log(''));
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    if (req.socket.destroyed) log(' unanswered');
    return end(...args);
  }) as Response['end'];
  next();
}
