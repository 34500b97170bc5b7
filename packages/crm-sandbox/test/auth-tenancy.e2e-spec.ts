// docs/CRM-API.md §5 and §7: bearer keys, the three 401 codes, 403 insufficient_scope
// naming the scope, and tenancy (a key sees only its organization's data).
import { DEMO, KEYS } from '../../../test/support/demo-fixture';
import { call, client } from '../../../test/support/http';
import { useDemoSandbox } from './sandbox-test-kit';

jest.setTimeout(60_000);

const { sandbox } = useDemoSandbox();

describe('authentication', () => {
  it.each<[string, string | undefined, string]>([
    ['no Authorization header', undefined, 'missing_api_key'],
    ['an empty bearer token', 'Bearer ', 'missing_api_key'],
    ['an unknown key', 'Bearer sk_nope', 'invalid_api_key'],
    ['a non-bearer scheme', `Basic ${KEYS.full}`, 'invalid_api_key'],
    ['a revoked key', `Bearer ${KEYS.revoked}`, 'revoked_api_key'],
  ])('refuses %s with 401 %s', async (_name, authorization, code) => {
    const res = await call(sandbox, 'GET', '/v1/contacts', {
      key: null,
      headers: authorization ? { authorization } : {},
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('never echoes the key in a 401 body', async () => {
    const res = await call(sandbox, 'GET', '/v1/contacts', { key: 'sk_super_secret_value' });
    expect(JSON.stringify(res.body)).not.toContain('sk_super_secret_value');
  });

  it('accepts a valid key', async () => {
    const res = await client(sandbox).get('/v1/channels');
    expect(res.status).toBe(200);
  });
});

describe('scopes', () => {
  it('refuses a write with a read-only key: 403 insufficient_scope naming the scope', async () => {
    const res = await client(sandbox, KEYS.readonly).post(
      `/v1/contacts/${DEMO.contacts.maria}/tags/${DEMO.tags.vip}`,
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
    expect(res.body.error.message).toContain('contacts.write');
  });

  it('lets a read-only key read', async () => {
    expect((await client(sandbox, KEYS.readonly).get(`/v1/contacts/${DEMO.contacts.maria}`)).status).toBe(
      200,
    );
  });

  it.each<[string, string, string]>([
    ['GET', '/v1/tags', 'tags.read'],
    ['GET', '/v1/conversations', 'conversations.read'],
    ['POST', '/v1/segments', 'segments.write'],
    ['GET', '/v1/users', 'users.read'],
    ['GET', '/v1/webhooks', 'webhooks.read'],
    ['DELETE', `/v1/custom-fields/${DEMO.customFields.legacy}`, 'custom_fields.write'],
    ['GET', '/v1/contact-stages', 'stages.read'],
    ['POST', '/v1/messages/reactions', 'messages.write'],
    ['GET', '/v1/message-templates', 'templates.read'],
  ])('a contacts-only key gets 403 on %s %s naming %s', async (method, path, scope) => {
    const res = await call(sandbox, method, path, {
      key: KEYS.contactsOnly,
      body: method === 'GET' ? undefined : {},
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain(`'${scope}'`);
  });

  it('checks the scope before validating the body', async () => {
    const res = await client(sandbox, KEYS.readonly).post('/v1/segments', { name: '' });
    expect(res.status).toBe(403);
  });
});

describe('tenancy', () => {
  it("answers 404 for another organization's contact", async () => {
    const res = await client(sandbox, KEYS.other).get(`/v1/contacts/${DEMO.contacts.maria}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_not_found' });
  });

  it("lists only the key's own contacts", async () => {
    const mine = await client(sandbox, KEYS.other).get('/v1/contacts');
    expect(mine.body.total).toBe(2);
    expect(mine.body.data.map((c: { id: string }) => c.id)).not.toContain(DEMO.contacts.maria);
    const demo = await client(sandbox).get('/v1/contacts');
    expect(demo.body.total).toBe(DEMO.contactCount);
  });

  it("cannot tag a contact with another organization's tag", async () => {
    const res = await client(sandbox).post(`/v1/contacts/${DEMO.contacts.maria}/tags/${DEMO.other.tag}`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('tag');
  });

  it("cannot open a conversation on another organization's channel", async () => {
    const res = await client(sandbox).post('/v1/conversations', {
      contactId: DEMO.contacts.maria,
      channelId: DEMO.other.channel,
    });
    expect(res.status).toBe(404);
  });

  it('keeps writes of one organization invisible to the other', async () => {
    await client(sandbox, KEYS.other).post('/v1/segments', { name: 'Shared name', filters: {} });
    const res = await client(sandbox).post('/v1/segments', { name: 'Shared name', filters: {} });
    expect(res.status).toBe(201);
    expect((await client(sandbox, KEYS.other).get('/v1/segments')).body.data).toHaveLength(1);
  });
});

describe('request ids', () => {
  it('puts X-Request-Id req_<id> on successes', async () => {
    const res = await client(sandbox).get('/v1/channels');
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('quotes the header id in error bodies', async () => {
    const res = await client(sandbox).get(`/v1/contacts/${DEMO.other.contact}`);
    expect(res.body.error.requestId).toMatch(/^req_/);
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('gives every request its own id', async () => {
    const [a, b] = await Promise.all([
      client(sandbox).get('/v1/channels'),
      client(sandbox).get('/v1/channels'),
    ]);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});
