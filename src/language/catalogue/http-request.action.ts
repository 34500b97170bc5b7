// `- http-request: { name, method, url, headers, body, timeout, save }` -> a call to another
// system of the business (an ERP, an order system), not the CRM: it goes through the egress layer
// (src/outbound/egress: allow-list, address checks, size cap, per-host limits), never the CRM budget. Every
// attempt carries the same Idempotency-Key and the engine's signature; `save:` reads values of the
// JSON answer that later steps of the run use as {{steps.<name>.<key>}}. Header values may name
// secrets, `${secret.NAME}`, filled in only when the request leaves.
import { parseDuration } from '../rules/format/durations';
import { isPlainObject, type ProblemCollector } from '../rules/format/problem-collector';
import type { YamlPath } from '../rules/format/yaml-source';
import { HttpStatusError, ResponseNotJsonError, SavedSecretError } from '../net/egress-errors';
import { ANY_REF, headerParts, SECRET_REF, type HeaderPart } from '../net/secret-headers';
import { PROCEED, quoted, type ActionDefinition } from './action-definition';
import { mapResponse, parseResponsePath } from './response-path';
import { renderUrl } from './render-url';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof HTTP_METHODS)[number];
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type HttpRequestAction = {
  type: 'http-request';
  name: string;
  method: Method;
  url: string;
  headers?: Record<string, string>;
  body?: Json;
  timeoutMs: number;
  save?: Record<string, string>;
};
export type ResolvedHttpRequest = {
  type: 'http-request';
  name: string;
  method: Method;
  url: string;
  /** Rendered text and secret references apart (filled by the sender, never stored). */
  headers: Record<string, HeaderPart[]>;
  /** JSON text. */
  body?: string;
  timeoutMs: number;
  save?: Record<string, string>;
};

export const STEP_NAME = /^[a-z][a-z0-9-]{0,62}$/;
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_TIMEOUT_MS = 60_000;

/** The string leaves of a body, with their path, for template checks and rendering. */
function bodyStrings(body: Json | undefined, path: YamlPath = ['body']): { path: YamlPath; text: string }[] {
  if (typeof body === 'string') return [{ path, text: body }];
  if (Array.isArray(body)) return body.flatMap((v, i) => bodyStrings(v, [...path, i]));
  if (body !== null && typeof body === 'object')
    return Object.entries(body).flatMap(([k, v]) => bodyStrings(v, [...path, k]));
  return [];
}

function renderBody(body: Json, render: (t: string) => string): Json {
  if (typeof body === 'string') return render(body);
  if (Array.isArray(body)) return body.map((v) => renderBody(v, render));
  if (body !== null && typeof body === 'object')
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, renderBody(v, render)]));
  return body;
}

/** The URL's host when it is written out (no template before the path): what `validate` can check. */
export function staticHost(url: string): string | undefined {
  const m = /^https?:\/\/([^/?#{]*)(?=[/?#]|$)/i.exec(url);
  if (!m || m[1] === '') return undefined;
  try {
    return new URL(`http://${m[1]}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

function parseHttpRequest(value: unknown, path: YamlPath, ctx: ProblemCollector) {
  if (!isPlainObject(value) || typeof value.name !== 'string' || typeof value.url !== 'string')
    return undefined;
  const before = ctx.errorCount();
  if (!STEP_NAME.test(value.name))
    ctx.error(
      [...path, 'name'],
      'invalid-action',
      'the name is lower-case letters, digits and "-", e.g. erp-lookup',
    );
  if (!/^https?:\/\//i.test(value.url))
    ctx.error([...path, 'url'], 'invalid-action', 'the URL must start with http:// or https://');
  const method = (typeof value.method === 'string' ? value.method.toUpperCase() : 'POST') as Method;
  if (!HTTP_METHODS.includes(method))
    ctx.error([...path, 'method'], 'invalid-action', `method must be one of ${HTTP_METHODS.join(', ')}`);
  if (method === 'GET' && value.body !== undefined)
    ctx.error([...path, 'body'], 'invalid-action', 'a GET request has no body');
  const timeoutMs = value.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseDuration(value.timeout);
  if (timeoutMs === undefined || timeoutMs > MAX_TIMEOUT_MS)
    ctx.error([...path, 'timeout'], 'invalid-action', 'timeout is a duration of at most 60s, e.g. 10s');
  const headers = isPlainObject(value.headers) ? (value.headers as Record<string, string>) : undefined;
  for (const [name, v] of Object.entries(headers ?? {}))
    if (typeof v === 'string' && ANY_REF.test(v.replace(SECRET_REF, '')))
      ctx.error(
        [...path, 'headers', name],
        'invalid-action',
        'a header names a secret as ${secret.NAME} (upper case)',
      );
  // Secrets only in header values: a URL or a body ends up in traces and receivers' logs.
  for (const t of [{ path: ['url'], text: value.url }, ...bodyStrings(value.body as Json)])
    if (ANY_REF.test(t.text))
      ctx.error([...path, ...t.path], 'invalid-action', 'secrets (${secret.NAME}) go in header values only');
  const save = isPlainObject(value.save) ? (value.save as Record<string, string>) : undefined;
  for (const [key, p] of Object.entries(save ?? {})) {
    const parsed = typeof p === 'string' ? parseResponsePath(p) : { error: 'must be a path like $.status' };
    if ('error' in parsed) ctx.error([...path, 'save', key], 'invalid-action', parsed.error);
  }
  if (ctx.errorCount() !== before) return undefined;
  return {
    name: value.name,
    method,
    url: value.url,
    ...(headers ? { headers } : {}),
    ...(value.body !== undefined ? { body: value.body as Json } : {}),
    timeoutMs: timeoutMs!,
    ...(save ? { save } : {}),
  };
}

export const httpRequestAction: ActionDefinition<HttpRequestAction, ResolvedHttpRequest> = {
  type: 'http-request',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'url'],
    description:
      'Call another system over HTTP (allowed hosts only), signed, with an Idempotency-Key; retried on 5xx and timeouts, failed on 4xx.',
    properties: {
      name: {
        type: 'string',
        pattern: STEP_NAME.source,
        description:
          'The step name: later steps read saved values as {{steps.<name>.<key>}}; rule tests mock its answer by it.',
      },
      method: { enum: [...HTTP_METHODS], description: 'The HTTP method (default POST).' },
      url: {
        type: 'string',
        minLength: 1,
        description: 'http(s) URL; mustache values such as {{contact.id}} are percent-encoded.',
      },
      headers: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'Header values; ${secret.NAME} names a secret (HTTP_SECRET_NAME or the secrets file).',
      },
      body: { description: 'A JSON value; its strings may be mustache values such as {{contact.phone}}.' },
      timeout: {
        type: 'string',
        description: 'Longest wait for an answer, e.g. 10s (default 10s, at most 60s).',
      },
      save: {
        type: 'object',
        additionalProperties: { type: 'string', pattern: '^\\$' },
        description: 'Values of the JSON answer to keep for later steps: key: $.path (.name, [index]).',
      },
    },
  },
  repeat: 'idempotent-by-key',
  callsCrm: false,
  parse: parseHttpRequest,
  templates: (a) => [
    { path: ['url'], text: a.url },
    ...Object.entries(a.headers ?? {}).map(([k, text]) => ({ path: ['headers', k], text })),
    ...bodyStrings(a.body),
  ],
  label: (a) => `http-request ${quoted(a.name)} ${a.method} ${quoted(a.url)}`,
  // It writes nothing in the CRM: no loop, no conflict.
  effect: { emits: () => [] },
  resolve: async (a, env) => ({
    type: 'http-request',
    name: a.name,
    method: a.method,
    url: renderUrl(a.url, env.render),
    headers: Object.fromEntries(
      Object.entries(a.headers ?? {}).map(([k, v]) => [k, headerParts(v, env.render)]),
    ),
    ...(a.body !== undefined ? { body: JSON.stringify(renderBody(a.body, env.render)) } : {}),
    timeoutMs: a.timeoutMs,
    ...(a.save ? { save: a.save } : {}),
  }),
  guard: () => PROCEED,
  apply: (_r, contact) => contact,
  execute: async (r, env) => {
    if (!env.outbound) throw new Error('http-request runs only in the action runner');
    const res = await env.outbound.send({
      method: r.method,
      url: r.url,
      headers: r.headers,
      body: r.body,
      timeoutMs: r.timeoutMs,
      idempotencyKey: env.outbound.idempotencyKey,
    });
    if (res.status < 200 || res.status > 299) throw new HttpStatusError(res.status);
    if (r.save) {
      let json: unknown;
      try {
        json = JSON.parse(res.body.toString('utf8'));
      } catch {
        throw new ResponseNotJsonError(
          `save needs a JSON answer; got ${res.contentType || 'no content type'}`,
        );
      }
      const saved = mapResponse(r.save, json);
      // A receiver that echoes headers would put a secret in action_results.saved: refused.
      for (const [key, value] of Object.entries(saved)) {
        const secret = env.outbound.secretIn(value);
        if (secret) throw new SavedSecretError(key, secret);
      }
      Object.assign(env.outbound.saved, saved);
    }
    return undefined;
  },
};
