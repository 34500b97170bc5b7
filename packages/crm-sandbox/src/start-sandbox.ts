// Programmatic entry of the CRM sandbox: the engine embeds it when CRM_BASE_URL is unset,
// tests start one per file on port 0, `npm run sandbox` runs it alone (main.ts).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { json } from 'express';
import { readFixture } from './domain/fixture-loader';
import type { SandboxFixture } from './domain/fixture-types';
import {
  bodyParserErrorHandler,
  requestIdMiddleware,
  requestLogMiddleware,
} from './http/request-id.middleware';
import { SandboxModule } from './sandbox.module';
import { SandboxRuntime } from './sandbox-runtime';

export type { SandboxFixture } from './domain/fixture-types';

export interface SandboxOptions {
  /** 0 = random; default 4010. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Object or path to a .yaml/.json fixture; default: the demo fixture. */
  fixture?: SandboxFixture | string;
  /** Default 300 per 60000 ms, per API key. */
  rateLimit?: { limit: number; windowMs: number };
  /** Backoff base for delivery retries; default 1000 (tests use ~20). */
  webhookRetryBaseMs?: number;
  /** Default 10000. */
  webhookTimeoutMs?: number;
  /** Log deliveries and errors to stdout; default false. */
  log?: boolean;
  /** The sandbox's clock (rate windows, timestamps); default the process clock. Tests set it. */
  now?: () => Date;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:4010 (no trailing slash). */
  url: string;
  port: number;
  /** Stops HTTP and pending deliveries/timers. */
  close(): Promise<void>;
}

export const SANDBOX_BODY_LIMIT = '1mb';

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const runtime = new SandboxRuntime({
    fixture: readFixture(opts.fixture),
    rateLimit: opts.rateLimit ?? { limit: 300, windowMs: 60_000 },
    webhookRetryBaseMs: opts.webhookRetryBaseMs ?? 1000,
    webhookTimeoutMs: opts.webhookTimeoutMs ?? 10_000,
    log: opts.log ?? false,
    ...(opts.now ? { now: opts.now } : {}),
  });
  const app = await NestFactory.create<NestExpressApplication>(SandboxModule.forRuntime(runtime), {
    logger: opts.log ? ['error', 'warn'] : false,
    bodyParser: false,
    abortOnError: false,
  });
  // Order matters: request id first, then our JSON parser and its error handler, so even
  // a malformed body gets docs/CRM-API.md §7's envelope with a requestId.
  app.use(requestIdMiddleware);
  if (opts.log) app.use(requestLogMiddleware);
  app.use(json({ limit: SANDBOX_BODY_LIMIT, type: ['application/json', 'application/*+json'] }));
  app.use(bodyParserErrorHandler);
  app.disable('x-powered-by');
  app.set('etag', false); // no 304s: every read answers with the current state
  const host = opts.host ?? '127.0.0.1';
  try {
    await app.listen(opts.port ?? 4010, host);
  } catch (err) {
    runtime.close();
    await app.close().catch(() => undefined);
    throw err; // e.g. EADDRINUSE: the caller decides
  }
  const address = app.getHttpServer().address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    port: address.port,
    close: () => {
      closed ??= (async () => {
        runtime.close();
        await app.close(); // Node >= 19 also closes idle keep-alive sockets here
      })();
      return closed;
    },
  };
}
