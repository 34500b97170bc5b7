// Helpers of the sandbox conformance suite: a started sandbox reset before each test, and a
// local webhook receiver. HTTP client, demo fixture ids and phones: test/support/.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature as verifyWebhookSignature } from '../../../src/language/net/verify-signature';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@crm-rules/crm-sandbox';
import { call, client } from '../../../test/support/http';
import { uniquePhone } from '../../../test/support/phones';

export function startTestSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, webhookRetryBaseMs: 20, webhookTimeoutMs: 2000, ...opts });
}

export interface ReceivedDelivery {
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
  body: any;
  at: number;
}

export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  /** Status (and headers) to answer the next deliveries with; default 200. */
  respondWith(
    fn: (
      d: ReceivedDelivery,
      index: number,
    ) => { status: number; headers?: Record<string, string>; delayMs?: number },
  ): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  let responder: Parameters<Receiver['respondWith']>[0] = () => ({ status: 200 });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const delivery = { path: req.url ?? '', headers: req.headers, rawBody, body, at: Date.now() };
      received.push(delivery);
      const answer = responder(delivery, received.length - 1);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers).end('ok');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    respondWith: (fn) => {
      responder = fn;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until)
          throw new Error(`receiver got ${received.length} deliveries, expected ${count}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` returns a value (not undefined) or the timeout passes. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 15));
  }
}

/** Checks a delivery with the engine's own verifier: the sandbox must sign what the engine accepts. */
export function verifySignature(
  secret: string,
  header: string,
  rawBody: string,
): { t: number; valid: boolean } {
  const t = Number(/(?:^|,)t=(\d+)/.exec(header)?.[1]);
  // Verified "as of" its own timestamp: these tests check the signature, not the clock.
  const check = verifyWebhookSignature(header, Buffer.from(rawBody), [secret], t);
  return { t, valid: check.ok };
}

/**
 * The set-up every suite shares: one sandbox for the file, reset to the demo fixture before each
 * test. `sandbox` and `api` exist at once (usable at module level); `sandbox.url` resolves once
 * beforeAll has started the server.
 */
export function useDemoSandbox(opts: SandboxOptions = {}) {
  let running: RunningSandbox | undefined;
  const sandbox = {
    get url(): string {
      if (!running) throw new Error('the sandbox starts in beforeAll; call it from a hook or test');
      return running.url;
    },
  };
  beforeAll(async () => {
    running = await startTestSandbox(opts);
  });
  afterAll(() => running?.close());
  beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset', { key: null }));
  return { sandbox, api: client(sandbox) };
}

/**
 * The set-up both webhook suites share: the demo sandbox (fast retries) and a fresh receiver per
 * test. Returns a context whose receiver is filled in by the hooks.
 */
export function useWebhookSandbox() {
  const ctx = useDemoSandbox({ webhookRetryBaseMs: 20 }) as {
    sandbox: { url: string };
    api: ReturnType<typeof client>;
    receiver: Receiver;
    subscribe(events: string[], url?: string): Promise<any>;
    createContact(): Promise<any>;
  };
  beforeEach(async () => {
    ctx.receiver = await startReceiver();
  });
  afterEach(() => ctx.receiver.close());
  ctx.subscribe = async (events, url = ctx.receiver.url) =>
    (await ctx.api.post('/v1/webhooks', { url, events })).body;
  ctx.createContact = async () =>
    (await ctx.api.post('/v1/contacts', { name: 'Hook Test', phone: uniquePhone() })).body;
  return ctx;
}
