// POST /webhooks/crm served straight from Node's HTTP server, ahead of Express and Nest's router:
// the intake is the hot path (the CRM times out at 10 s and retries), and a bare handler measured
// about twice the throughput of the same work behind the framework (docs/BENCHMARKS.md).
// Untrusted input is refused as early as possible: the signature header before any byte of the
// body is read, an oversized body as soon as it passes the limit, a slow one at its deadline.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { IntakeService } from './intake.service';

export const WEBHOOK_PATH = '/webhooks/crm';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'timeout' };

/**
 * Reads the exact bytes (the signature covers them). Past `limitBytes` or `timeoutMs` it stops
 * at once: nothing more is buffered, and the caller closes the connection after answering.
 */
export function readRawBody(
  req: IncomingMessage,
  limitBytes: number,
  timeoutMs: number,
): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limitBytes)
      return resolve({ ok: false, reason: 'too_large' });
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: BodyResult) => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      if (!result.ok) req.pause(); // read no more of it
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) done({ ok: false, reason: 'too_large' });
      else chunks.push(chunk);
    };
    const timer = setTimeout(() => done({ ok: false, reason: 'timeout' }), timeoutMs);
    req.on('data', onData);
    req.once('end', () => done({ ok: true, body: Buffer.concat(chunks) }));
    req.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

export function reply(res: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** Answers, then drops the connection: the rest of the body is never read. */
export function refuseAndClose(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
): void {
  res.once('finish', () => req.destroy());
  reply(res, status, body, true);
}

/**
 * Reads the body under the limits, then answers with what `accept` decides: 413 / 408 past the
 * limits, 503 when anything fails (never a 2xx for a delivery that was not committed: the sender
 * retries). Shared by POST /webhooks/crm and POST /hooks/<source>.
 */
export function readAndAccept(
  req: IncomingMessage,
  res: ServerResponse,
  opts: { limitBytes: number; timeoutMs: number },
  accept: (body: Buffer) => Promise<{ status: number; body: unknown }>,
): void {
  void (async () => {
    try {
      const read = await readRawBody(req, opts.limitBytes, opts.timeoutMs);
      if (!read.ok) {
        return read.reason === 'too_large'
          ? refuseAndClose(req, res, 413, {
              error: { code: 'payload_too_large', message: `body exceeds ${opts.limitBytes} bytes` },
            })
          : refuseAndClose(req, res, 408, {
              error: { code: 'request_timeout', message: `body not received within ${opts.timeoutMs} ms` },
            });
      }
      const outcome = await accept(read.body);
      reply(res, outcome.status, outcome.body);
    } catch {
      if (!res.headersSent) reply(res, 503, { error: { code: 'unavailable', message: 'retry later' } });
    }
  })();
}

/** Wraps the framework's request listener: webhook deliveries go to the intake, the rest to `next`. */
export function webhookFastPath(
  intake: IntakeService,
  opts: { limitBytes: number; signatureHeader: string; timeoutMs: number },
  next: RequestListener,
): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== WEBHOOK_PATH) return next(req, res);
    if (req.method !== 'POST')
      return refuseAndClose(req, res, 405, { error: { code: 'method_not_allowed', message: 'POST only' } });
    const raw = req.headers[opts.signatureHeader];
    const header = intake.checkHeader(Array.isArray(raw) ? raw.join(',') : raw);
    if (!header.ok) return refuseAndClose(req, res, header.refusal.status, header.refusal.body);
    readAndAccept(req, res, opts, (body) => intake.accept(body, header.header));
  };
}
