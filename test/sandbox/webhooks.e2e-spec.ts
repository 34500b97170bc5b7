// crm-api.md section 6 and 4.9: the secret returned once, signed deliveries, and which
// operation emits which event (payload {id, type, createdAt, data}).
import type { RunningSandbox } from '../../src/sandbox/start-sandbox';
import {
  call,
  client,
  DEMO,
  KEYS,
  type Receiver,
  startReceiver,
  startTestSandbox,
  uniquePhone,
  verifySignature,
} from './sandbox-test-kit';

jest.setTimeout(60_000);

let sandbox: RunningSandbox;
let api: ReturnType<typeof client>;
let receiver: Receiver;
beforeAll(async () => {
  sandbox = await startTestSandbox({ webhookRetryBaseMs: 20 });
  api = client(sandbox);
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await call(sandbox, 'POST', '/_sandbox/reset', { key: null });
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const subscribe = async (events: string[], url = receiver.url) =>
  (await api.post('/v1/webhooks', { url, events })).body;
const createContact = async () =>
  (await api.post('/v1/contacts', { name: 'Hook Test', phone: uniquePhone() })).body;

describe('subscriptions', () => {
  it('returns the secret once at creation and never again', async () => {
    const res = await api.post('/v1/webhooks', { url: receiver.url, events: ['contact.created'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      url: receiver.url,
      events: ['contact.created'],
      secret: expect.stringMatching(/^whsec_/),
    });
    const list = await api.get('/v1/webhooks');
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: res.body.id, url: receiver.url, enabled: true }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    expect(list.body.data[0]).not.toHaveProperty('secret');
  });

  it('deletes a subscription; a second delete is 404', async () => {
    const { id } = await subscribe(['contact.created']);
    expect((await api.delete(`/v1/webhooks/${id}`)).body).toEqual({ success: true, id });
    expect((await api.delete(`/v1/webhooks/${id}`)).status).toBe(404);
    expect((await api.get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('validates url and event kinds', async () => {
    const res = await api.post('/v1/webhooks', {
      url: 'ftp://x',
      events: ['contact.created', 'contact.exploded'],
    });
    expect(res.body.error.details.map((d: { param: string; code: string }) => [d.param, d.code])).toEqual([
      ['url', 'invalid_string'],
      ['events[1]', 'invalid_enum_value'],
    ]);
    expect(
      (await api.post('/v1/webhooks', { url: receiver.url, events: [] })).body.error.details[0].code,
    ).toBe('too_small');
  });
});

describe('signed delivery', () => {
  it('delivers contact.created signed with the secret over t + "." + raw body', async () => {
    const { secret } = await subscribe(['contact.created']);
    const contact = await createContact();
    const [d] = await receiver.waitFor(1);
    expect(d.headers['content-type']).toBe('application/json');
    const header = d.headers['x-service-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const { t, valid } = verifySignature(secret, header, d.rawBody);
    expect(valid).toBe(true);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(5);
    expect(verifySignature('whsec_wrong', header, d.rawBody).valid).toBe(false);
    expect(d.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'contact.created',
      createdAt: expect.any(String),
      data: contact,
    });
  });

  it('sends only the kinds a subscription lists, to every matching subscription of the org', async () => {
    const other = await startReceiver();
    try {
      await subscribe(['message.created']);
      await subscribe(['contact.created', 'message.created'], other.url);
      await client(sandbox, KEYS.other).post('/v1/webhooks', { url: other.url, events: ['contact.created'] });
      await createContact();
      await other.waitFor(1);
      await sleep(150);
      expect(receiver.received).toHaveLength(0);
      expect(other.received.map((d) => d.body.type)).toEqual(['contact.created']);
    } finally {
      await other.close();
    }
  });

  it('gives every event its own id', async () => {
    await subscribe(['contact.created']);
    await createContact();
    await createContact();
    const [a, b] = await receiver.waitFor(2);
    expect(a.body.id).not.toBe(b.body.id);
  });
});

describe('which operation emits which event', () => {
  it.each<[string, (contactId: string) => Promise<unknown>]>([
    ['add tag', (id) => api.post(`/v1/contacts/${id}/tags/${DEMO.tags.vip}`)],
    ['remove tag', (id) => api.delete(`/v1/contacts/${id}/tags/${DEMO.tags.newContact}`)],
    ['set stage', (id) => api.put(`/v1/contacts/${id}/stage`, { stageId: DEMO.stages.customer })],
    ['assign', (id) => api.patch(`/v1/contacts/${id}`, { assigneeId: DEMO.members.ben })],
    ['block', (id) => api.post(`/v1/contacts/${id}/block`)],
    ['update name', (id) => api.patch(`/v1/contacts/${id}`, { name: 'Maria S.' })],
  ])('%s emits contact.updated with the full contact', async (_name, act) => {
    await subscribe(['contact.updated']);
    await act(DEMO.contacts.maria);
    const [d] = await receiver.waitFor(1);
    expect(d.body.type).toBe('contact.updated');
    expect(d.body.data).toEqual((await api.get(`/v1/contacts/${DEMO.contacts.maria}`)).body);
  });

  it('a no-op change emits nothing', async () => {
    await subscribe(['contact.updated']);
    await api.post(`/v1/contacts/${DEMO.contacts.john}/tags/${DEMO.tags.vip}`);
    await sleep(150);
    expect(receiver.received).toHaveLength(0);
  });

  it('delete emits contact.deleted with the contact as it was', async () => {
    await subscribe(['contact.deleted']);
    const before = (await api.get(`/v1/contacts/${DEMO.contacts.pedro}`)).body;
    await api.delete(`/v1/contacts/${DEMO.contacts.pedro}`);
    const [d] = await receiver.waitFor(1);
    expect(d.body).toMatchObject({ type: 'contact.deleted', data: before });
  });

  it('inbound and outbound messages emit message.created whose contactId names the contact', async () => {
    await subscribe(['message.created']);
    const sent = await api.post('/v1/messages', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      text: 'Out',
    });
    const got = await call(sandbox, 'POST', '/_sandbox/inbound-message', {
      key: null,
      body: { contactId: DEMO.contacts.john, text: 'In: my order?' },
    });
    expect(got.status).toBe(201);
    const [a, b] = await receiver.waitFor(2);
    const byDirection = Object.fromEntries(
      [a, b].map((d) => [d.body.data.isOutgoing ? 'out' : 'in', d.body]),
    );
    expect(byDirection.out).toMatchObject({
      type: 'message.created',
      data: { id: sent.body.id, contactId: DEMO.contacts.maria, isOutgoing: true },
    });
    expect(byDirection.in).toMatchObject({
      type: 'message.created',
      data: {
        contactId: DEMO.contacts.john,
        isOutgoing: false,
        text: 'In: my order?',
        conversationId: DEMO.conversations.john,
      },
    });
  });

  it('a reaction emits message.updated', async () => {
    await subscribe(['message.updated']);
    await api.post('/v1/messages/reactions', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      messagePlatformId: 'pm_demo_0001',
      emoji: '❤️',
    });
    const [d] = await receiver.waitFor(1);
    expect(d.body.data).toMatchObject({ messagePlatformId: 'pm_demo_0001', reaction: '❤️' });
  });
});
