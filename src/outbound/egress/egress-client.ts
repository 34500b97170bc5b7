// The one outbound HTTP client of rules (the http-request action); the CRM has its own gateway.
// Every hop (the first URL and each redirect, followed by hand) passes the egress policy: the URL
// is checked, its host resolved, every address checked, and the connection pinned to the checked
// address through the socket's `lookup`, so a second DNS answer (rebinding) cannot swap it.
// The response is read as a stream and cut at the size cap; one deadline covers all hops.
import type { EgressResponse } from '../../language/net/outbound-request';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  bareHost,
  checkAddress,
  checkUrl,
  EgressRefusedError,
  type EgressPolicy,
} from '../../language/net/egress-policy';
import {
  EgressTimeoutError,
  EgressTransportError,
  ResponseTooLargeError,
} from '../../language/net/egress-errors';
import { parseAddress } from '../../language/net/ip-address';

export interface EgressRequest {
  method: string;
  url: string;
  /** Sent on every hop. */
  headers: Record<string, string>;
  /** Sent only to the first URL's origin (credentials): a redirect elsewhere drops them. */
  originHeaders?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Signs each hop for its own method and URL (outbound-signature.ts): header name and value. */
  sign?: (method: string, url: URL) => [string, string];
}

export type { EgressResponse };

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
/** Per-host concurrency and rate (host-limits.ts): resolves with a release function. */
export type HostGate = (host: string, signal: AbortSignal) => Promise<() => Promise<void>>;

export interface EgressLimits {
  maxRedirects: number;
  maxResponseBytes: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const KEEPS_METHOD = new Set([307, 308]);

/** Latin-1 without control characters (tab allowed): what an HTTP header value can carry. */
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * A header value that can never be sent (a character outside Latin-1, a control character) is
 * refused before anything leaves: retrying would fail the same way. The value is not quoted (it may
 * hold a secret).
 */
function refuseUnsendableHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers))
    if (!SENDABLE.test(value))
      throw new EgressRefusedError(
        'egress_header_invalid',
        `refused: header ${name.slice(0, 64)} holds a character HTTP cannot carry (outside Latin-1 or a control character)`,
      );
}

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export class EgressClient {
  constructor(
    private readonly policy: EgressPolicy,
    private readonly limits: EgressLimits,
    private readonly gate: HostGate,
    private readonly resolve: Resolve = systemResolve,
  ) {}

  async send(req: EgressRequest): Promise<EgressResponse> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), req.timeoutMs);
    try {
      return await this.follow(req, deadline.signal);
    } catch (err) {
      if (deadline.signal.aborted && !(err instanceof EgressRefusedError))
        throw new EgressTimeoutError(`no answer within ${req.timeoutMs} ms`);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private async follow(req: EgressRequest, signal: AbortSignal): Promise<EgressResponse> {
    let url = parseUrl(req.url);
    const origin = url.origin;
    const method = req.method;
    const body = req.body;
    refuseUnsendableHeaders({ ...req.headers, ...req.originHeaders });
    for (let hop = 0; ; hop++) {
      const refusal = checkUrl(url, this.policy);
      if (refusal) throw refusal;
      const pinned = await this.pin(url, signal);
      const headers = { ...req.headers, ...(url.origin === origin ? req.originHeaders : {}) };
      if (req.sign) {
        const [name, value] = req.sign(method, url);
        headers[name] = value;
      }
      const release = await this.gate(bareHost(url), signal);
      let res: EgressResponse & { location?: string };
      try {
        res = await this.hop(url, pinned, method, headers, body, signal);
      } finally {
        await release();
      }
      if (!REDIRECTS.has(res.status) || res.location === undefined) return res;
      if (hop >= this.limits.maxRedirects)
        throw new EgressRefusedError(
          'egress_too_many_redirects',
          `refused: more than ${this.limits.maxRedirects} redirects (HTTP_ACTION_MAX_REDIRECTS)`,
        );
      // 301/302/303 turn a request into a bodyless GET: a POST would be recorded done though it
      // never arrived. Only 307/308 keep method and body; anything but a GET stops at the others.
      if (method !== 'GET' && !KEEPS_METHOD.has(res.status))
        throw new EgressRefusedError(
          'egress_redirect_refused',
          `refused: ${method} answered ${res.status}, a redirect that would drop the method and body (only 307/308 are followed for ${method})`,
        );
      url = parseUrl(res.location, url);
    }
  }

  /** The address the connection will use, after every resolved address passed the policy. */
  private async pin(url: URL, signal: AbortSignal): Promise<{ address: string; family: number }> {
    const host = bareHost(url);
    if (parseAddress(host)) return { address: host, family: host.includes(':') ? 6 : 4 };
    let addresses: { address: string; family: number }[];
    try {
      // Bounded by the request's deadline: a resolver that never answers cannot hold the action.
      addresses = await untilAborted(this.resolve(host), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new EgressTransportError(`host ${host} does not resolve`, (err as { code?: string }).code);
    }
    if (addresses.length === 0) throw new EgressTransportError(`host ${host} does not resolve`);
    // Any non-public answer refuses the host: a resolver that mixes them is not to be trusted.
    for (const a of addresses) {
      const refusal = checkAddress(host, a.address, this.policy);
      if (refusal) throw refusal;
    }
    return addresses[0];
  }

  private hop(
    url: URL,
    pinned: { address: string; family: number },
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<EgressResponse & { location?: string }> {
    const lookup = ((_host, options, callback) => {
      if (options?.all) callback(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    }) as LookupFunction;
    const send = url.protocol === 'https:' ? https.request : http.request;
    const max = this.limits.maxResponseBytes;
    return new Promise((resolve, reject) => {
      const req = send(url, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup,
        agent: false,
        signal,
      });
      req.on('error', (err: NodeJS.ErrnoException) =>
        reject(
          signal.aborted || err instanceof ResponseTooLargeError
            ? err
            : new EgressTransportError(`${method} ${url.host} failed: ${err.code ?? err.message}`, err.code),
        ),
      );
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const location = REDIRECTS.has(status) ? res.headers.location : undefined;
        const declared = Number(res.headers['content-length'] ?? NaN);
        const tooLarge = () => new ResponseTooLargeError(`the answer is larger than ${max} bytes`);
        if (declared > max) return req.destroy(tooLarge());
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > max) return req.destroy(tooLarge());
          chunks.push(chunk);
        });
        res.on('error', () => undefined);
        res.on('end', () =>
          resolve({
            status,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks),
            url: url.toString(),
            location,
          }),
        );
      });
      req.end(body);
    });
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new EgressTimeoutError('the DNS lookup did not answer within the deadline'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    throw new EgressRefusedError(
      'egress_url_invalid',
      `refused: ${base ? 'the redirect' : 'the URL'} is not a valid URL`,
    );
  }
}
