// The one fetch in the engine that talks to the CRM: URL building, the bearer header, a
// timeout on every call and the mapping of error bodies to typed errors.
import {
  CrmApiError,
  CrmTransportError,
  CrmUnreadableAnswerError,
  InvalidCrmIdError,
} from '../../language/crm-terms/crm-errors';
import type { CrmErrorDetail } from '@crm-rules/crm-contract';
import { parseRetryAfter } from './retry-policy';
import { crmAnswered } from './crm-answers';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface CrmHttpOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Fills `{name}` placeholders of a path template with ids that must be uuids (docs/CRM-API.md §4
 * rule 2), encoded all the same. Ids come from webhooks and CRM answers: never trusted in a path.
 */
export function crmPath(operation: string, template: string, ids: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = ids[name];
    if (!isUuid(value)) throw new InvalidCrmIdError(operation, name, value);
    return encodeURIComponent(value);
  });
}

/** Arrays are repeated (`tagIds=a&tagIds=b`, docs/CRM-API.md §4 rule 3); empty values are left out. */
export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, String(item));
    else url.searchParams.append(name, String(value));
  }
  return url.toString();
}

/** Maps a non-2xx answer to a CrmApiError; tolerates bodies that are not the documented envelope. */
export function toApiError(
  operation: string,
  status: number,
  bodyText: string,
  headers: { get(name: string): string | null },
  nowMs = Date.now(),
): CrmApiError {
  let envelope: Partial<{
    type: string;
    code: string;
    message: string;
    details: CrmErrorDetail[];
    requestId: string;
  }> = {};
  try {
    const parsed = JSON.parse(bodyText) as { error?: typeof envelope };
    if (parsed && typeof parsed.error === 'object' && parsed.error !== null) envelope = parsed.error;
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): keep the status as the only fact.
  }
  return new CrmApiError({
    status,
    type: envelope.type ?? 'unknown_error',
    code: envelope.code ?? `http_${status}`,
    message: envelope.message ?? `CRM answered HTTP ${status}`,
    details: Array.isArray(envelope.details) ? envelope.details : undefined,
    requestId: envelope.requestId ?? headers.get('x-request-id') ?? undefined,
    operation,
    retryAfterMs: status === 429 ? parseRetryAfter(headers.get('retry-after'), nowMs) : undefined,
  });
}

export class CrmHttp {
  private readonly authorization: string;

  constructor(private readonly options: CrmHttpOptions) {
    // Kept only as the header value; never logged, never put in an error.
    this.authorization = `Bearer ${options.apiKey}`;
  }

  async request<T>(operation: string, spec: RequestSpec): Promise<T> {
    const url = buildUrl(this.options.baseUrl, spec.path, spec.query);
    const headers: Record<string, string> = { authorization: this.authorization, accept: 'application/json' };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    // A timer cleared as soon as the body is in, not AbortSignal.timeout(): that signal lives until
    // its timeout fires, and with it fetch's listeners, the request and the response. A full sync
    // reads ~100 pages a second, so a 10 s timeout kept hundreds of pages reachable, long enough to
    // be promoted to the old generation (docs/BENCHMARKS.md, Memory).
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new DOMException('CRM call timed out', 'TimeoutError')),
      this.options.timeoutMs,
    );
    try {
      response = await fetch(url, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal: abort.signal,
        redirect: 'error',
      });
    } catch (err) {
      clearTimeout(timer);
      throw toTransportError(operation, err, this.options.timeoutMs);
    }
    try {
      text = await response.text();
    } catch (err) {
      // The status line arrived: a 2xx was accepted whatever happens to its body; any other
      // status is still the CRM's answer (a 429 cut short is still a refusal).
      if (response.ok && spec.method !== 'GET')
        throw new CrmUnreadableAnswerError(operation, response.status, { cause: err });
      if (response.ok) throw toTransportError(operation, err, this.options.timeoutMs);
      text = '';
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) throw toApiError(operation, response.status, text, response.headers);
    crmAnswered(response.headers.get('x-request-id'));
    return parseAnswer<T>(operation, spec.method, response.status, text);
  }
}

/**
 * A 2xx body. One that is not JSON (cut short, a proxy's page): for a write, an accepted write all
 * the same (CrmUnreadableAnswerError); for a read, a transport failure the gateway may retry.
 */
export function parseAnswer<T>(
  operation: string,
  method: RequestSpec['method'],
  status: number,
  text: string,
): T {
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    if (method !== 'GET') throw new CrmUnreadableAnswerError(operation, status, { cause: err });
    throw new CrmTransportError(operation, 'connection', `${operation}: unreadable answer (${status})`, {
      cause: err,
    });
  }
}

function toTransportError(operation: string, err: unknown, timeoutMs: number): CrmTransportError {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new CrmTransportError(
      operation,
      'timeout',
      `${operation}: no answer from the CRM within ${timeoutMs} ms`,
      {
        cause: err,
      },
    );
  }
  const code = (err as { cause?: { code?: string } } | null)?.cause?.code;
  const reason = code ?? (err instanceof Error ? err.message : 'unknown error');
  return new CrmTransportError(
    operation,
    'connection',
    `${operation}: connection to the CRM failed (${reason})`,
    {
      cause: err,
    },
  );
}
