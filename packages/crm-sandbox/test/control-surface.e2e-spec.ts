// The /_sandbox/ control surface: reset, fixtures, inbound messages, faults, counters,
// delivery log and contact state. Never authenticated, never under /v1.
import { DEMO, KEYS, UNKNOWN_ID } from '../../../test/support/demo-fixture';
import { call, client } from '../../../test/support/http';
import { uniquePhone } from '../../../test/support/phones';
import { startTestSandbox, useDemoSandbox } from './sandbox-test-kit';

jest.setTimeout(60_000);

const { sandbox, api } = useDemoSandbox();
const control = (method: string, path: string, body?: unknown, query?: Record<string, string>) =>
  call(sandbox, method, `/_sandbox${path}`, { key: null, body, query });

const tinyFixture = {
  organizations: [
    {
      name: 'Tiny Inc',
      apiKeys: [{ key: 'sk_tiny', scopes: ['*'], member: 'tina@tiny.test' }],
      members: [{ name: 'Tina', email: 'tina@tiny.test' }],
      tags: [{ name: 'lead' }],
      channels: [{ name: 'Line', platformType: 'WHATSAPP', status: 'connected' }],
      contacts: [
        { name: 'Tom', phone: '15550001111', assignee: 'Tina', tags: ['lead'], lastInteractionAt: 'now-31d' },
      ],
    },
  ],
};

describe('reset and fixtures', () => {
  it('reset brings the loaded fixture back', async () => {
    await api.delete(`/v1/contacts/${DEMO.contacts.maria}`);
    await api.post('/v1/contacts', { phone: uniquePhone() });
    expect((await control('POST', '/reset')).body).toEqual({ success: true });
    expect((await api.get(`/v1/contacts/${DEMO.contacts.maria}`)).status).toBe(200);
    expect((await api.get('/v1/contacts')).body.total).toBe(DEMO.contactCount);
  });

  it('loads a fixture object, which reset then returns to', async () => {
    const own = await startTestSandbox(); // this test replaces the demo fixture
    try {
      const res = await call(own, 'POST', '/_sandbox/fixture', { key: null, body: tinyFixture });
      expect(res.status).toBe(200);
      expect((await client(own).get('/v1/contacts')).status).toBe(401); // the demo keys are gone
      const tiny = client(own, 'sk_tiny');
      const contacts = (await tiny.get('/v1/contacts')).body;
      expect(contacts.data).toEqual([
        expect.objectContaining({ name: 'Tom', tags: [expect.objectContaining({ name: 'lead' })] }),
      ]);
      const lastInteraction = Date.parse(contacts.data[0].lastInteractionAt);
      expect(Math.round((Date.now() - lastInteraction) / 86400e3)).toBe(31);
      await tiny.post('/v1/contacts', { phone: uniquePhone() });
      await call(own, 'POST', '/_sandbox/reset', { key: null });
      expect((await tiny.get('/v1/contacts')).body.total).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('refuses a broken fixture listing every problem and keeps the current state', async () => {
    const res = await control('POST', '/fixture', {
      organizations: [
        {
          name: 'Broken',
          apiKeys: [{ key: 'sk_b', scopes: ['contacts.fly'] }],
          contacts: [{ name: 'X', phone: '+1', assignee: 'nobody' }],
        },
      ],
    });
    expect(res.status).toBe(400);
    const messages = res.body.error.details.map((d: { message: string }) => d.message).join('\n');
    expect(messages).toContain('contacts.fly');
    expect(messages).toContain('phone');
    expect(messages).toContain("no member 'nobody'");
    expect((await api.get('/v1/contacts')).status).toBe(200);
  });

  it('keeps fixture ids stable across resets', async () => {
    const before = (await api.get('/v1/tags')).body.data;
    await control('POST', '/reset');
    expect((await api.get('/v1/tags')).body.data).toEqual(before);
  });
});

describe('inbound messages', () => {
  it('creates the conversation if needed and an incoming message', async () => {
    const res = await control('POST', '/inbound-message', {
      contactId: DEMO.contacts.chen,
      text: 'Hello from Chen',
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toMatchObject({
      contactId: DEMO.contacts.chen,
      isOutgoing: false,
      text: 'Hello from Chen',
    });
    expect(res.body.conversation).toMatchObject({
      channelId: DEMO.channels.main,
      lastMessage: 'Hello from Chen',
      unreadCount: 1,
      lastMessageIsOutgoing: false,
    });
    const again = await control('POST', '/inbound-message', {
      contactId: DEMO.contacts.chen,
      text: 'Still there?',
    });
    expect(again.body.conversation).toMatchObject({ id: res.body.conversation.id, unreadCount: 2 });
    expect((await api.get(`/v1/contacts/${DEMO.contacts.chen}`)).body.lastInteractionAt).toBe(
      again.body.message.createdAt,
    );
  });

  it('uses the given channel and refuses a disconnected one', async () => {
    const res = await control('POST', '/inbound-message', {
      contactId: DEMO.contacts.chen,
      text: 'x',
      channelId: DEMO.channels.oldLine,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('channel_not_connected');
  });

  it('picks the organization with orgKey', async () => {
    expect(
      (await control('POST', '/inbound-message', { contactId: DEMO.other.contact, text: 'x' })).status,
    ).toBe(404);
    const res = await control('POST', '/inbound-message', {
      contactId: DEMO.other.contact,
      text: 'bonjour',
      orgKey: KEYS.other,
    });
    expect(res.status).toBe(201);
    expect(res.body.conversation.channelId).toBe(DEMO.other.channel);
  });
});

describe('faults', () => {
  it('answers 500 to the next N requests, then recovers', async () => {
    await control('POST', '/faults', { kind: 'error500', count: 2 });
    expect((await api.get('/v1/tags')).status).toBe(500);
    expect((await api.get('/v1/channels')).status).toBe(500);
    expect((await api.get('/v1/channels')).status).toBe(200);
  });

  it('limits a fault to a route pattern, with or without a method', async () => {
    await control('POST', '/faults', {
      kind: 'error500',
      count: 5,
      route: 'POST /v1/contacts/:contactId/tags/:tagId',
    });
    expect((await api.get(`/v1/contacts/${DEMO.contacts.maria}`)).status).toBe(200);
    expect(
      (await api.delete(`/v1/contacts/${DEMO.contacts.maria}/tags/${DEMO.tags.newContact}`)).status,
    ).toBe(200);
    expect((await api.post(`/v1/contacts/${DEMO.contacts.maria}/tags/${DEMO.tags.vip}`)).status).toBe(500);
    await control('DELETE', '/faults');
    await control('POST', '/faults', { kind: 'error500', count: 1, route: '/v1/channels' });
    expect((await api.get('/v1/tags')).status).toBe(200);
    expect((await api.get('/v1/channels')).status).toBe(500);
  });

  it('delays the next N requests by latencyMs', async () => {
    await control('POST', '/faults', { kind: 'latency', count: 1, latencyMs: 300 });
    const t0 = Date.now();
    expect((await api.get('/v1/channels')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    // The fault was spent by that one request (no wall-clock bound on the next: it flaked under load).
    expect((await control('GET', '/faults')).body.data).toEqual([]);
  });

  it('validates fault specs and lists armed faults', async () => {
    const bad = await control('POST', '/faults', { kind: 'meteor', count: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { param: string }) => d.param)).toEqual(['kind', 'count']);
    await control('POST', '/faults', { kind: 'latency', count: 3, latencyMs: 1 });
    expect((await control('GET', '/faults')).body.data).toEqual([
      expect.objectContaining({ kind: 'latency', remaining: 3 }),
    ]);
  });

  it('does not apply faults to requests refused with 401', async () => {
    await control('POST', '/faults', { kind: 'error500', count: 1 });
    expect((await call(sandbox, 'GET', '/v1/channels', { key: 'sk_nope' })).status).toBe(401);
    expect((await api.get('/v1/channels')).status).toBe(500);
  });
});

describe('counters and logs', () => {
  it('counts calls per method and route pattern, refused ones included', async () => {
    await api.post(`/v1/contacts/${DEMO.contacts.maria}/tags/${DEMO.tags.vip}`);
    await api.post(`/v1/contacts/${DEMO.contacts.john}/tags/${DEMO.tags.vip}`);
    await api.post(`/v1/contacts/${UNKNOWN_ID}/tags/${DEMO.tags.vip}`); // 404
    await call(sandbox, 'POST', `/v1/contacts/${DEMO.contacts.john}/tags/${DEMO.tags.vip}`, { key: null }); // 401
    await api.get('/v1/contacts');
    await api.get('/v1/nothing-here'); // no route: not counted
    await control('GET', '/counters'); // control surface: not counted
    expect((await control('GET', '/counters')).body).toEqual({
      'POST /v1/contacts/:contactId/tags/:tagId': 4,
      'GET /v1/contacts': 1,
    });
    await control('DELETE', '/counters');
    expect((await control('GET', '/counters')).body).toEqual({});
  });

  it('shows a contact state without a key', async () => {
    const res = await control('GET', `/state/contacts/${DEMO.contacts.maria}`);
    expect(res.body).toMatchObject({ id: DEMO.contacts.maria, name: 'Maria Silva' });
    expect(
      (await control('GET', `/state/contacts/${DEMO.other.contact}`, undefined, { orgKey: KEYS.other })).body
        .name,
    ).toBe('Oscar Other');
    expect((await control('GET', `/state/contacts/${DEMO.other.contact}`)).status).toBe(404);
  });

  it('describes itself at GET /_sandbox', async () => {
    const res = await control('GET', '');
    expect(res.body.organizations.map((o: { name: string }) => o.name)).toEqual(['Demo Co', 'Other Org']);
    expect(JSON.stringify(res.body)).not.toContain('sk_');
  });

  it('is not reachable under /v1', async () => {
    expect((await api.post('/v1/_sandbox/reset')).status).toBe(404);
  });
});
