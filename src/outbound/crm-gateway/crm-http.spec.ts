// The CRM client's URL building, error mapping and id checks; nothing here opens a socket (the
// transport errors are in test/integration/crm-http-transport.integration-spec.ts).
import { CRM_OPERATIONS, CrmClient } from './crm-client';
import { InvalidCrmIdError } from '../../language/crm-terms/crm-errors';
import { buildUrl, toApiError } from './crm-http';

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
