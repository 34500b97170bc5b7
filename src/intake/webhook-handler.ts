// POST /webhooks/crm served straight from Node's HTTP server, ahead of Express and Nest's router:
// the intake is the hot path (the CRM times out at 10 s and retries), and a bare handler measured
// about twice the throughput of the same work behind the framework (docs/BENCHMARKS.md).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { IntakeService } from './intake.service';

export const WEBHOOK_PATH = '/webhooks/crm';

type BodyResult = { ok: true; body: Buffer } | { ok: false };

/** Reads the exact bytes (the signature covers them), refusing past the limit without buffering the rest. */
export function readRawBody(req: IncomingMessage, limitBytes: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) {
      req.resume();
      return resolve({ ok: false });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) over = true;
      else if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? { ok: false } : { ok: true, body: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Wraps the framework's request listener: webhook deliveries go to the intake, the rest to `next`. */
export function webhookFastPath(
  intake: IntakeService,
  opts: { limitBytes: number; signatureHeader: string },
  next: RequestListener,
): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== WEBHOOK_PATH) return next(req, res);
    if (req.method !== 'POST')
      return reply(res, 405, { error: { code: 'method_not_allowed', message: 'POST only' } });
    void (async () => {
      try {
        const read = await readRawBody(req, opts.limitBytes);
        if (!read.ok)
          return reply(res, 413, {
            error: { code: 'payload_too_large', message: `body exceeds ${opts.limitBytes} bytes` },
          });
        const header = req.headers[opts.signatureHeader];
        const outcome = await intake.accept(read.body, Array.isArray(header) ? header.join(',') : header);
        reply(res, outcome.status, outcome.body);
      } catch {
        // Whatever failed, the CRM must retry: never a 2xx for an event that was not committed.
        if (!res.headersSent) reply(res, 503, { error: { code: 'unavailable', message: 'retry later' } });
      }
    })();
  };
}
