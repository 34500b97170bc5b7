// docs/CRM-API.md §6 and §4.9: the secret returned once, signed deliveries, and which
// operation emits which event (payload {id, type, createdAt, data}).
import { DEMO, KEYS } from '../../../test/support/demo-fixture';
import { call, client } from '../../../test/support/http';
import { startReceiver, useWebhookSandbox, verifySignature } from './sandbox-test-kit';

jest.setTimeout(60_000);

const ctx = useWebhookSandbox();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('subscriptions', () => {
  it('returns the secret once at creation and never again', async () => {
    const res = await ctx.api.post('/v1/webhooks', { url: ctx.receiver.url, events: ['contact.created'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      url: ctx.receiver.url,
      events: ['contact.created'],
      secret: expect.stringMatching(/^whsec_/),
    });
    const list = await ctx.api.get('/v1/webhooks');
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: res.body.id, url: ctx.receiver.url, enabled: true }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    expect(list.body.data[0]).not.toHaveProperty('secret');
  });

  it('deletes a subscription; a second delete is 404', async () => {
    const { id } = await ctx.subscribe(['contact.created']);
    expect((await ctx.api.delete(`/v1/webhooks/${id}`)).body).toEqual({ success: true, id });
    expect((await ctx.api.delete(`/v1/webhooks/${id}`)).status).toBe(404);
    expect((await ctx.api.get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('validates url and event kinds', async () => {
    const res = await ctx.api.post('/v1/webhooks', {
      url: 'ftp://x',
      events: ['contact.created', 'contact.exploded'],
    });
    expect(res.body.error.details.map((d: { param: string; code: string }) => [d.param, d.code])).toEqual([
      ['url', 'invalid_string'],
      ['events[1]', 'invalid_enum_value'],
    ]);
    expect(
      (await ctx.api.post('/v1/webhooks', { url: ctx.receiver.url, events: [] })).body.error.details[0].code,
    ).toBe('too_small');
  });
});

describe('signed delivery', () => {
  it('delivers contact.created signed with the secret over t + "." + raw body', async () => {
    const { secret } = await ctx.subscribe(['contact.created']);
    const sentFrom = Math.floor(Date.now() / 1000);
    const contact = await ctx.createContact();
    const [d] = await ctx.receiver.waitFor(1);
    const receivedBy = Math.ceil(Date.now() / 1000);
    expect(d.headers['content-type']).toBe('application/json');
    const header = d.headers['x-service-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const { t, valid } = verifySignature(secret, header, d.rawBody);
    expect(valid).toBe(true);
    // Signed while the delivery was under way: between the two instants, however long that took.
    expect(t).toBeGreaterThanOrEqual(sentFrom);
    expect(t).toBeLessThanOrEqual(receivedBy);
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
      await ctx.subscribe(['message.created']);
      await ctx.subscribe(['contact.created', 'message.created'], other.url);
      await client(ctx.sandbox, KEYS.other).post('/v1/webhooks', {
        url: other.url,
        events: ['contact.created'],
      });
      await ctx.createContact();
      await other.waitFor(1);
      await sleep(150);
      expect(ctx.receiver.received).toHaveLength(0);
      expect(other.received.map((d) => d.body.type)).toEqual(['contact.created']);
    } finally {
      await other.close();
    }
  });

  it('gives every event its own id', async () => {
    await ctx.subscribe(['contact.created']);
    await ctx.createContact();
    await ctx.createContact();
    const [a, b] = await ctx.receiver.waitFor(2);
    expect(a.body.id).not.toBe(b.body.id);
  });
});

describe('which operation emits which event', () => {
  it.each<[string, (contactId: string) => Promise<unknown>]>([
    ['add tag', (id) => ctx.api.post(`/v1/contacts/${id}/tags/${DEMO.tags.vip}`)],
    ['remove tag', (id) => ctx.api.delete(`/v1/contacts/${id}/tags/${DEMO.tags.newContact}`)],
    ['set stage', (id) => ctx.api.put(`/v1/contacts/${id}/stage`, { stageId: DEMO.stages.customer })],
    ['assign', (id) => ctx.api.patch(`/v1/contacts/${id}`, { assigneeId: DEMO.members.ben })],
    ['block', (id) => ctx.api.post(`/v1/contacts/${id}/block`)],
    ['update name', (id) => ctx.api.patch(`/v1/contacts/${id}`, { name: 'Maria S.' })],
  ])('%s emits contact.updated with the full contact', async (_name, act) => {
    await ctx.subscribe(['contact.updated']);
    await act(DEMO.contacts.maria);
    const [d] = await ctx.receiver.waitFor(1);
    expect(d.body.type).toBe('contact.updated');
    expect(d.body.data).toEqual((await ctx.api.get(`/v1/contacts/${DEMO.contacts.maria}`)).body);
  });

  it('a no-op change emits nothing', async () => {
    await ctx.subscribe(['contact.updated']);
    await ctx.api.post(`/v1/contacts/${DEMO.contacts.john}/tags/${DEMO.tags.vip}`);
    await sleep(150);
    expect(ctx.receiver.received).toHaveLength(0);
  });

  it('delete emits contact.deleted with the contact as it was', async () => {
    await ctx.subscribe(['contact.deleted']);
    const before = (await ctx.api.get(`/v1/contacts/${DEMO.contacts.pedro}`)).body;
    await ctx.api.delete(`/v1/contacts/${DEMO.contacts.pedro}`);
    const [d] = await ctx.receiver.waitFor(1);
    expect(d.body).toMatchObject({ type: 'contact.deleted', data: before });
  });

  it('inbound and outbound messages emit message.created whose contactId names the contact', async () => {
    await ctx.subscribe(['message.created']);
    const sent = await ctx.api.post('/v1/messages', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      text: 'Out',
    });
    const got = await call(ctx.sandbox, 'POST', '/_sandbox/inbound-message', {
      key: null,
      body: { contactId: DEMO.contacts.john, text: 'In: my order?' },
    });
    expect(got.status).toBe(201);
    const [a, b] = await ctx.receiver.waitFor(2);
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
    await ctx.subscribe(['message.updated']);
    await ctx.api.post('/v1/messages/reactions', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      messagePlatformId: 'pm_demo_0001',
      emoji: '❤️',
    });
    const [d] = await ctx.receiver.waitFor(1);
    expect(d.body.data).toMatchObject({ messagePlatformId: 'pm_demo_0001', reaction: '❤️' });
  });
});
