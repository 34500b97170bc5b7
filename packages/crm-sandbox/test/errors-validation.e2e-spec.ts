// docs/CRM-API.md §7: the envelope, validation listing every failing field, 404 and
// 409 bodies, 500 without the original exception; plus segment constraints of 2.4.
import { DEMO, UNKNOWN_ID } from '../../../test/support/demo-fixture';
import { call } from '../../../test/support/http';
import { useDemoSandbox } from './sandbox-test-kit';

jest.setTimeout(60_000);

const { sandbox, api } = useDemoSandbox();

const params = (res: { body: any }) => res.body.error.details.map((d: { param: string }) => d.param).sort();

describe('validation errors', () => {
  it('lists all 5 bad fields of a segment, each with param, code and message', async () => {
    const res = await api.post('/v1/segments', {
      name: 'x'.repeat(31),
      filters: {
        tagIds: [DEMO.tags.vip],
        phoneFilters: [{ countryCode: '1234567', prefix: '12a' }],
        sourceMethods: ['CARRIER_PIGEON'],
        isBlocked: 'yes',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'validation_failed',
      requestId: expect.stringMatching(/^req_/),
    });
    expect(params(res)).toEqual([
      'filters.isBlocked',
      'filters.phoneFilters[0].countryCode',
      'filters.phoneFilters[0].prefix',
      'filters.sourceMethods[0]',
      'name',
    ]);
    for (const d of res.body.error.details)
      expect(d).toEqual({ param: expect.any(String), code: expect.any(String), message: expect.any(String) });
    const codes = Object.fromEntries(
      res.body.error.details.map((d: { param: string; code: string }) => [d.param, d.code]),
    );
    expect(codes).toEqual({
      name: 'too_big',
      'filters.phoneFilters[0].countryCode': 'too_big',
      'filters.phoneFilters[0].prefix': 'invalid_string',
      'filters.sourceMethods[0]': 'invalid_enum_value',
      'filters.isBlocked': 'invalid_type',
    });
  });

  it.each<[string, unknown, string, string]>([
    [
      'more than 5 phone filters',
      { phoneFilters: Array.from({ length: 6 }, () => ({ countryCode: '1', prefix: '2' })) },
      'filters.phoneFilters',
      'too_big',
    ],
    [
      'a prefix of 11 digits',
      { phoneFilters: [{ countryCode: '1', prefix: '12345678901' }] },
      'filters.phoneFilters[0].prefix',
      'too_big',
    ],
    ['a non-uuid stage id', { stageIds: ['qualified'] }, 'filters.stageIds[0]', 'invalid_string'],
    ['an empty ad id', { adIds: [''] }, 'filters.adIds[0]', 'too_small'],
    ['an empty country', { countries: [''] }, 'filters.countries[0]', 'too_small'],
    [
      'a custom field filter with no values',
      { customFieldFilters: [{ fieldKey: 'plan', values: [] }] },
      'filters.customFieldFilters[0].values',
      'too_small',
    ],
    [
      'a custom field filter with an empty key',
      { customFieldFilters: [{ fieldKey: '', values: ['a'] }] },
      'filters.customFieldFilters[0].fieldKey',
      'too_small',
    ],
    ['an unknown status', { status: 'deleted' }, 'filters.status', 'invalid_enum_value'],
    [
      'a date that is not a date-time',
      { createdAfter: 'yesterday' },
      'filters.createdAfter',
      'invalid_string',
    ],
    [
      'a relative date (API accepts absolute only)',
      { lastInteractionBefore: 'now-30d' },
      'filters.lastInteractionBefore',
      'invalid_string',
    ],
    ['an unknown filter member', { colour: 'red' }, 'filters.colour', 'unrecognized_keys'],
  ])('refuses a segment with %s', async (_name, filters, param, code) => {
    const res = await api.post('/v1/segments', { name: 'Check', filters });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ param, code })]);
  });

  it('requires filters and a name', async () => {
    const res = await api.post('/v1/segments', {});
    expect(params(res)).toEqual(['filters', 'name']);
    expect(res.body.error.details[0].code).toBe('invalid_type');
  });

  it('creates a segment at exactly 30 characters and 5 phone filters (201)', async () => {
    const filters = {
      phoneFilters: Array.from({ length: 5 }, () => ({ countryCode: '12345', prefix: '1234567890' })),
      sourceMethods: ['MSG_LITE'],
    };
    const res = await api.post('/v1/segments', { name: 'n'.repeat(30), filters });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'n'.repeat(30),
      filters,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('refuses unknown body members of any endpoint', async () => {
    const res = await api.post('/v1/conversations', {
      contactId: DEMO.contacts.maria,
      channelId: DEMO.channels.main,
      priority: 'high',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { param: 'priority', code: 'unrecognized_keys', message: expect.any(String) },
    ]);
  });

  it('refuses unknown query parameters', async () => {
    const res = await api.get('/v1/contacts', { query: { pageSize: 10 } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ param: 'pageSize', code: 'unrecognized_keys' });
  });

  it('refuses a path id that is not a uuid', async () => {
    const res = await api.get('/v1/contacts/maria');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { param: 'contactId', code: 'invalid_string', message: 'Invalid uuid' },
    ]);
  });

  it('refuses a malformed JSON body with validation_failed and a requestId', async () => {
    const res = await api.post('/v1/contacts', undefined, { rawBody: '{"name": ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ param: 'body', code: 'invalid_json' })],
    });
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('authenticates before complaining about a malformed body', async () => {
    const res = await call(sandbox, 'POST', '/v1/contacts', { key: null, rawBody: '{' });
    expect(res.status).toBe(401);
  });

  it('lists every bad field of a contact', async () => {
    const res = await api.post('/v1/contacts', {
      phone: '+5511',
      email: 'nope',
      tagIds: 'vip',
      sourceMethod: 'FAX',
    });
    expect(params(res)).toEqual(['email', 'phone', 'sourceMethod', 'tagIds']);
  });
});

describe('not found and conflicts', () => {
  it('answers 404 resource_not_found for an unknown id', async () => {
    const res = await api.get(`/v1/contacts/${UNKNOWN_ID}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'resource_not_found',
        message: expect.stringContaining(UNKNOWN_ID),
        requestId: expect.stringMatching(/^req_/),
      },
    });
  });

  it('answers 404 route_not_found for an unknown route', async () => {
    const res = await api.get('/v1/contactz');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('route_not_found');
  });

  it('answers 409 resource_conflict for a duplicate segment name in the organization', async () => {
    await api.post('/v1/segments', { name: 'Dormant 30 days', filters: {} });
    const res = await api.post('/v1/segments', { name: 'Dormant 30 days', filters: { isBlocked: false } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'resource_conflict',
        message: expect.stringContaining('Dormant 30 days'),
        requestId: expect.stringMatching(/^req_/),
      },
    });
  });

  it('validates before checking the name for conflicts', async () => {
    await api.post('/v1/segments', { name: 'Taken', filters: {} });
    expect((await api.post('/v1/segments', { name: 'Taken', filters: { isBlocked: 1 } })).status).toBe(400);
  });
});

describe('500', () => {
  it('answers api_error internal_error and never carries the original exception', async () => {
    await call(sandbox, 'POST', '/_sandbox/faults', { key: null, body: { kind: 'error500', count: 1 } });
    const res = await api.get('/v1/channels');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: {
        type: 'api_error',
        code: 'internal_error',
        message: expect.any(String),
        requestId: expect.stringMatching(/^req_/),
      },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/injected|Error:|at .*\.ts/);
    expect((await api.get('/v1/channels')).status).toBe(200);
  });
});
