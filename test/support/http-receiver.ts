// A stand-in for another system of the business (an ERP) that the http-request action calls in
// end-to-end tests: a real HTTP server that verifies the engine's signature on its own (not with
// the engine's verifier), records every request and its Idempotency-Key, and applies each key once,
// answering a repeat with the stored answer, as a receiver that deduplicates should.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  key: string | undefined;
  signatureValid: boolean;
  headers: IncomingMessage['headers'];
  body: string;
  /** The status answered, or 'held' for a request left without an answer. */
  answered?: number | 'held';
}

/** What the receiver does with a request: answer now, or hold it without answering (a timeout). */
export type Behaviour = (
  req: ReceivedRequest,
  seen: number,
) => { status: number; json?: unknown; headers?: Record<string, string>; apply?: boolean } | 'hold';

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Keys applied, with how many times each was applied (a deduplicating receiver: 1). */
  applied: Map<string, number>;
  close(): Promise<void>;
}

/** The v2 scheme as RULES.md documents it: HMAC of `t`, METHOD, URL, Idempotency-Key, body, by lines. */
function signatureValid(
  header: string | undefined,
  signed: { method: string; url: string; key: string | undefined; body: string },
  secret: string,
): boolean {
  const m = /^t=(\d+),v2=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const text = `${m[1]}\n${signed.method}\n${signed.url}\n${signed.key ?? ''}\n${signed.body}`;
  const expected = createHmac('sha256', secret).update(text).digest();
  return timingSafeEqual(expected, Buffer.from(m[2], 'hex'));
}

export async function startReceiver(
  host: string,
  secret: string,
  behaviours: Record<string, Behaviour>,
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const applied = new Map<string, number>();
  const answers = new Map<string, { status: number; json?: unknown }>();
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0];
      const key = req.headers['idempotency-key'] as string | undefined;
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path,
        key,
        signatureValid: signatureValid(
          req.headers['x-engine-signature'] as string,
          { method: req.method ?? '', url: `http://${req.headers.host}${req.url ?? '/'}`, key, body },
          secret,
        ),
        headers: req.headers,
        body,
      };
      requests.push(received);
      const seen = requests.filter((r) => r.key === key && r.path === path).length;
      const stored = key ? answers.get(key) : undefined;
      if (stored) {
        received.answered = stored.status;
        return answer(res, stored.status, stored.json);
      }
      const behaviour = Object.entries(behaviours).find(([prefix]) => path.startsWith(prefix))?.[1];
      const outcome = behaviour ? behaviour(received, seen) : { status: 404 };
      received.answered = outcome === 'hold' ? 'held' : outcome.status;
      if (outcome === 'hold') {
        // Applied, but the answer never comes: the engine times out and retries with the key.
        if (key) {
          applied.set(key, (applied.get(key) ?? 0) + 1);
          answers.set(key, { status: 200, json: { status: 'applied' } });
        }
        held.push(res);
        return;
      }
      if (key && outcome.apply !== false && outcome.status < 300) {
        applied.set(key, (applied.get(key) ?? 0) + 1);
        answers.set(key, outcome);
      }
      answer(res, outcome.status, outcome.json, outcome.headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    applied,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, status: number, json?: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    ...headers,
  });
  res.end(json === undefined ? undefined : JSON.stringify(json));
}
