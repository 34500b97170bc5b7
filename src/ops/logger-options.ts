import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config';

/**
 * JSON logs (pino). Headers that carry secrets are redacted; on a terminal the output is
 * pretty-printed so a newcomer's `npm start` is readable.
 */
export function loggerOptions(config: AppConfig): Params {
  const pretty = process.stdout.isTTY && config.nodeEnv !== 'production';
  return {
    pinoHttp: {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          `req.headers["${config.crm.signatureHeader}"]`,
          'req.headers["x-admin-token"]',
          'req.headers.cookie',
          // The console's session cookie, set on login: a session value, never logged.
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
      autoLogging: { ignore: (req) => /^\/(health|metrics)/.test(req.url ?? '') },
      customProps: (req) => ({ correlationId: (req as { id?: unknown }).id }),
      // A 5xx the code answered on purpose (the console's 503 without ADMIN_TOKEN) is one line, not
      // the stack of the placeholder error pino-http makes for it; a thrown error keeps its stack.
      customErrorObject: (_req, _res, error, logged) =>
        isStatusPlaceholder(error) ? { ...logged, err: undefined } : logged,
      customErrorMessage: (req, res, error) =>
        isStatusPlaceholder(error)
          ? `${req.method} ${req.url} answered ${res.statusCode}`
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
    },
  };
}

/** pino-http's stand-in when a response is 5xx with no error attached (logger.js, onResFinished). */
export function isStatusPlaceholder(error: Error): boolean {
  return /^failed with status code \d+$/.test(error.message);
}
