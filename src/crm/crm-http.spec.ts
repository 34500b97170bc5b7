import { CRM_OPERATIONS, CrmClient } from './crm-client';
import { CrmTransportError, CrmUnreadableAnswerError, InvalidCrmIdError } from './crm-errors';
import { buildUrl, CrmHttp, toApiError } from './crm-http';

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });

describe('buildUrl', () => {
  it('repeats array filters and leaves out empty values', () => {
    const url = buildUrl('http://crm.test/', '/v1/contacts', {
      tagIds: ['a', 'b'],
      page: 2,
      isBlocked: false,
      search: undefined,
      status: null,
    });
    expect(url).toBe('http://crm.test/v1/contacts?tagIds=a&tagIds=b&page=2&isBlocked=false');
  });
});

describe('toApiError', () => {
  it('carries the CRM envelope: type, code, message, details, requestId and status', () => {
    const body = JSON.stringify({
      error: {
        type: 'invalid_request_error',
        code: 'validation_failed',
        message: 'Validation failed',
        details: [{ param: 'name', code: 'invalid_string', message: 'too long' }],
        requestId: 'req_abc',
      },
    });
    const err = toApiError('createSegment', 400, body, headers({}));
    expect(err).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'validation_failed',
      message: 'Validation failed',
      details: [{ param: 'name', code: 'invalid_string', message: 'too long' }],
      requestId: 'req_abc',
      operation: 'createSegment',
      retryable: false,
    });
  });

  it('reads Retry-After on a 429 and marks it retryable', () => {
    const err = toApiError(
      'addTag',
      429,
      '{"error":{"type":"rate_limit_error","code":"rate_limit_exceeded","message":"slow down","requestId":"req_1"}}',
      headers({ 'retry-after': '4' }),
    );
    expect(err).toMatchObject({ status: 429, retryAfterMs: 4_000, retryable: true });
  });

  it('keeps the status and the X-Request-Id when the body is not the envelope', () => {
    const err = toApiError(
      'getContact',
      502,
      '<html>Bad gateway</html>',
      headers({ 'x-request-id': 'req_proxy' }),
    );
    expect(err).toMatchObject({ status: 502, code: 'http_502', requestId: 'req_proxy', retryable: true });
  });
});

describe('CrmClient', () => {
  it('exposes one method per operation, each listed for the gateway', () => {
    expect(CRM_OPERATIONS).toEqual(
      expect.arrayContaining(['getContact', 'addTag', 'createSegment', 'deleteWebhook']),
    );
    expect(CRM_OPERATIONS).not.toContain('constructor');
  });

  it('reports a refused connection as a retryable transport error without the API key', async () => {
    // Port 9 (discard) on localhost is closed on any sane test machine.
    const client = new CrmClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'sk_secret_value',
      timeoutMs: 2_000,
    });
    const err = await client.getContact('c0000000-0000-4000-8000-000000000001').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmTransportError);
    expect(err).toMatchObject({ kind: 'connection', operation: 'getContact', retryable: true });
    expect(String((err as Error).message)).not.toContain('sk_secret_value');
  });

  it.each([
    ['..', 'a0000000-0000-4000-8000-000000000001'],
    ['c0000000-0000-4000-8000-000000000001/../..', 'a0000000-0000-4000-8000-000000000001'],
    ['c0000000-0000-4000-8000-000000000001', '%2e%2e'],
    ['', 'a0000000-0000-4000-8000-000000000001'],
    [undefined, 'a0000000-0000-4000-8000-000000000001'],
  ])('refuses contact id %j / tag id %j before any request', async (contactId, tagId) => {
    // Port 9: were a request sent, it would fail with a transport error instead.
    const client = new CrmClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', timeoutMs: 1_000 });
    const err = await client.removeTag(contactId as string, tagId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidCrmIdError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_id', retryable: false, operation: 'removeTag' });
  });
});

describe('CrmHttp timeouts and unreadable answers', () => {
  const serve = async (handler: (res: import('node:http').ServerResponse) => void) => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => handler(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    return { url: `http://127.0.0.1:${port}`, server };
  };

  it('reports a CRM that does not answer in time as a retryable timeout', async () => {
    const { url, server } = await serve(() => undefined); // never answers
    try {
      const client = new CrmClient({ baseUrl: url, apiKey: 'k', timeoutMs: 200 });
      const err = await client.getContact('c0000000-0000-4000-8000-000000000001').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CrmTransportError);
      expect(err).toMatchObject({ kind: 'timeout', operation: 'getContact', retryable: true });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  const cutShort = (status: number, text = '{"id":"m1","text":"Hello"}') =>
    serve((res) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.write(text.slice(0, 5), () => res.socket?.destroy());
    });
  const notJson = (status: number) => serve((res) => res.writeHead(status).end('<html>proxy</html>'));

  it.each<[string, () => ReturnType<typeof serve>, 'POST' | 'GET', string]>([
    ['a write answered 201 with its body cut short', () => cutShort(201), 'POST', 'CrmUnreadableAnswerError'],
    [
      'a write answered 200 with a body that is not JSON',
      () => notJson(200),
      'POST',
      'CrmUnreadableAnswerError',
    ],
    ['a read answered 200 with its body cut short', () => cutShort(200), 'GET', 'CrmTransportError'],
    ['a read answered 200 with a body that is not JSON', () => notJson(200), 'GET', 'CrmTransportError'],
    [
      'a write answered 429 with its body cut short (still a refusal)',
      () => cutShort(429),
      'POST',
      'CrmApiError',
    ],
  ])('%s', async (_case, start, method, name) => {
    const { url, server } = await start();
    try {
      const http = new CrmHttp({ baseUrl: url, apiKey: 'k', timeoutMs: 5_000 });
      const err = await http
        .request('sendMessage', { method, path: '/v1/messages' })
        .catch((e: unknown) => e);
      expect((err as Error).name).toBe(name);
      if (name === 'CrmUnreadableAnswerError') expect(err).toBeInstanceOf(CrmUnreadableAnswerError);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
