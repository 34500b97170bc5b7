import { verifySignature as verifyWebhookSignature } from '../../src/intake/verify-signature';
// Helpers of the sandbox conformance suite: a started sandbox, a tiny HTTP client that
// only speaks fetch, the demo fixture's ids, and a local webhook receiver.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/start-sandbox';

export const KEYS = {
  full: 'sk_demo_full',
  readonly: 'sk_demo_readonly',
  revoked: 'sk_demo_revoked',
  contactsOnly: 'sk_demo_contacts',
  other: 'sk_other_full',
} as const;

const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const DEMO = {
  members: { ana: id('a0000000', 1), ben: id('a0000000', 2), cara: id('a0000000', 3) },
  stages: { newLead: id('5a000000', 1), qualified: id('5a000000', 2), customer: id('5a000000', 3) },
  tags: {
    newContact: id('7a000000', 1),
    vip: id('7a000000', 2),
    adLead: id('7a000000', 3),
    dormant: id('7a000000', 4),
    customer: id('7a000000', 5),
    thanked: id('7a000000', 6),
  },
  channels: { main: id('c4000000', 1), oldLine: id('c4000000', 2) },
  customFields: {
    plan: id('cf000000', 1),
    company: id('cf000000', 2),
    website: id('cf000000', 3),
    legacy: id('cf000000', 4),
  },
  contacts: {
    maria: id('c0000000', 1), // assigned (Ana), open conversation on Main WhatsApp
    john: id('c0000000', 2), // assigned (Ben), vip
    priya: id('c0000000', 3), // no assignee, conversation on Main WhatsApp
    lukas: id('c0000000', 4),
    anaGomez: id('c0000000', 5), // blocked
    chen: id('c0000000', 6), // no assignee, no conversation
    fatima: id('c0000000', 7), // archived
    kenji: id('c0000000', 8),
    olivia: id('c0000000', 9),
    pedro: id('c0000000', 10),
  },
  conversations: {
    maria: id('cc000000', 1),
    john: id('cc000000', 2),
    priya: id('cc000000', 3),
    lukas: id('cc000000', 4),
    kenji: id('cc000000', 5),
  },
  templates: { welcome: id('7e000000', 1), orderUpdate: id('7e000000', 2), pending: id('7e000000', 3) },
  other: {
    contact: id('c0000000', 101),
    tag: id('7a000000', 101),
    stage: id('5a000000', 101),
    channel: id('c4000000', 101),
  },
  contactCount: 10,
} as const;
export const UNKNOWN_ID = '00000000-0000-4000-8000-00000000dead';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export function startTestSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, webhookRetryBaseMs: 20, webhookTimeoutMs: 2000, ...opts });
}

export type Query = Record<string, string | number | boolean | (string | number)[]>;

export function toQueryString(query?: Query): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    for (const x of Array.isArray(v) ? v : [v]) params.append(k, String(x));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export async function call<T = any>(
  sandbox: { url: string },
  method: string,
  path: string,
  opts: {
    key?: string | null;
    body?: unknown;
    rawBody?: string;
    query?: Query;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? KEYS.full : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${sandbox.url}${path}${toQueryString(opts.query)}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** A client bound to one sandbox and key: api.get('/v1/contacts', { query }). */
export function client(sandbox: { url: string }, key: string | null = KEYS.full) {
  type Opts = Parameters<typeof call>[3];
  return {
    get: <T = any>(path: string, o: Opts = {}) => call<T>(sandbox, 'GET', path, { key, ...o }),
    post: <T = any>(path: string, body?: unknown, o: Opts = {}) =>
      call<T>(sandbox, 'POST', path, { key, body, ...o }),
    patch: <T = any>(path: string, body?: unknown, o: Opts = {}) =>
      call<T>(sandbox, 'PATCH', path, { key, body, ...o }),
    put: <T = any>(path: string, body?: unknown, o: Opts = {}) =>
      call<T>(sandbox, 'PUT', path, { key, body, ...o }),
    delete: <T = any>(path: string, body?: unknown, o: Opts = {}) =>
      call<T>(sandbox, 'DELETE', path, { key, body, ...o }),
  };
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

let phoneSeq = 0;
/** A phone no fixture contact uses, unique within the test process. */
export function uniquePhone(): string {
  phoneSeq += 1;
  return `1999${String(process.pid % 1000).padStart(3, '0')}${String(phoneSeq).padStart(5, '0')}`;
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
