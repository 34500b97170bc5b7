import { stdSerializers, type DestinationStream } from 'pino';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../../runtime/config/app-config';
import { redactError, redactLogArguments, redactPersonalData } from './log-redaction';

/**
 * Where a secret can sit in a request or answer log line: the API key and signature, the admin
 * token, and the console's session and CSRF values (its cookies both ways, the CSRF header and
 * form field). Each path is replaced whole, wherever a log line carries it.
 */
export function redactedPaths(signatureHeader: string): string[] {
  return [
    'req.headers.authorization',
    `req.headers["${signatureHeader}"]`,
    'req.headers["x-admin-token"]',
    'req.headers.cookie',
    'req.headers["x-csrf-token"]',
    'req.body._csrf',
    'req.body.token',
    'req.body.password',
    'res.headers["set-cookie"]',
    'res.headers["x-csrf-token"]',
  ];
}

/** The single sign-on callback's query (an authorization code, its state) never reaches a log line. */
export function withoutSignInCode<T extends { url?: string; query?: unknown }>(req: T): T {
  if (!req.url?.startsWith('/console/login/oidc/callback')) return req;
  return { ...req, url: '/console/login/oidc/callback?[redacted]', query: '[redacted]' };
}

/**
 * JSON logs (pino). Headers that carry secrets are redacted; on a terminal the output is
 * pretty-printed so a newcomer's `npm start` is readable. `destination`: where the lines go
 * instead of stdout (the browser tests read them back to look for leaked session values).
 */
export function loggerOptions(config: AppConfig, destination?: DestinationStream): Params {
  const pretty = !destination && process.stdout.isTTY && config.nodeEnv !== 'production';
  const options = {
    level: config.logLevel,
    redact: { paths: redactedPaths(config.crm.signatureHeader), censor: '[redacted]' },
    // Ids, not personal data: phone numbers and emails in messages, SQL text and parameters in
    // errors, search terms in URLs never reach a line (log-redaction.ts).
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(this, redactLogArguments(args));
      },
    },
    serializers: {
      err: (err: unknown) =>
        redactError(
          (err instanceof Error ? stdSerializers.err(err) : (err as Record<string, unknown>)) as Record<
            string,
            unknown
          >,
        ),
      req: (req: Record<string, unknown>) => {
        const r = withoutSignInCode(req as { url?: string; query?: unknown });
        return typeof r?.url === 'string' ? { ...r, url: redactPersonalData(r.url) } : r;
      },
    },
    autoLogging: { ignore: (req: { url?: string }) => /^\/(health|metrics)/.test(req.url ?? '') },
    customProps: (req: unknown) => ({ correlationId: (req as { id?: unknown }).id }),
    // A 5xx the code answered on purpose (the console's 503 without ADMIN_TOKEN) is one line, not
    // the stack of the placeholder error pino-http makes for it; a thrown error keeps its stack.
    customErrorObject: (_req: unknown, _res: unknown, error: Error, logged: Record<string, unknown>) =>
      isStatusPlaceholder(error) ? { ...logged, err: undefined } : logged,
    customErrorMessage: (
      req: { method?: string; url?: string },
      res: { statusCode: number },
      error: Error,
    ) =>
      isStatusPlaceholder(error)
        ? `${req.method} ${withoutSignInCode(req).url} answered ${res.statusCode}`
        : 'request errored',
    // On a terminal: `12:00:01 INFO [Engine] message`, extra fields on the same line; else JSON.
    transport: pretty
      ? {
          target: 'pino-pretty',
          options: {
            singleLine: true,
            translateTime: 'SYS:HH:MM:ss',
            messageFormat: '{if context}[{context}] {end}{msg}',
            ignore: 'pid,hostname,req,res,context',
          },
        }
      : undefined,
  };
  return { pinoHttp: destination ? [options, destination] : options };
}

/** pino-http's stand-in when a response is 5xx with no error attached (logger.js, onResFinished). */
export function isStatusPlaceholder(error: Error): boolean {
  return /^failed with status code \d+$/.test(error.message);
}
