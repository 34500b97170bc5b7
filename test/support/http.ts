// The tests' HTTP client: fetch with JSON in and out, never throwing on a status. `request` is the
// one implementation; `call` and `client` speak to the CRM (the sandbox) with an API key, `api`
// to any server (engine, control surface) with a JSON content type on every request.
// Imports nothing from the engine, so tests that do not boot it stay light.
import { KEYS } from './demo-fixture';

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON; the raw text when it is not JSON; undefined when empty. */
  body: T;
}

export type Query = Record<string, string | number | boolean | (string | number)[]>;

/** Arrays become repeated parameters (`tagIds=a&tagIds=b`), as the CRM expects. */
export function toQueryString(query?: Query): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    for (const x of Array.isArray(v) ? v : [v]) params.append(k, String(x));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (for malformed or exact bodies); `body` wins when both are given. */
  rawBody?: string;
  query?: Query;
  headers?: Record<string, string>;
}

/** One request; a body gets `content-type: application/json` unless a content type is given. */
export async function request<T = any>(
  url: string,
  method: string,
  opts: RequestOptions = {},
): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${url}${toQueryString(opts.query)}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: parseBody(text) as T };
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface CallOptions extends RequestOptions {
  /** API key sent as a bearer token; default the demo's full key, null for none. */
  key?: string | null;
}

/** A call to the CRM's API (or the sandbox's control surface with `key: null`). */
export function call<T = any>(
  sandbox: { url: string },
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? KEYS.full : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return request<T>(`${sandbox.url}${path}`, method, { ...opts, headers });
}

/** A client bound to one sandbox and key: api.get('/v1/contacts', { query }). */
export function client(sandbox: { url: string }, key: string | null = KEYS.full) {
  type Opts = CallOptions;
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

/** A request to `base + path` with a JSON content type; a string body is sent as it is. */
export function api<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResponse<T>> {
  return request<T>(`${base}${path}`, method, {
    headers: { 'content-type': 'application/json', ...headers },
    ...(typeof body === 'string' ? { rawBody: body } : { body }),
  });
}
