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
        ],
        censor: '[redacted]',
      },
      autoLogging: { ignore: (req) => /^\/(health|metrics)/.test(req.url ?? '') },
      customProps: (req) => ({ correlationId: (req as { id?: unknown }).id }),
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
