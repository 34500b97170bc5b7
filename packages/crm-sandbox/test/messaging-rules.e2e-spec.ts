// The messaging rules of docs/CRM-API.md §1: assignee before messaging, blocked contacts neither send
// nor receive, conversations need a connected channel and are reused per pair, an empty
// emoji removes a reaction.
import { DEMO, UNKNOWN_ID } from '../../../test/support/demo-fixture';
import { call } from '../../../test/support/http';
import { useDemoSandbox } from './sandbox-test-kit';

jest.setTimeout(60_000);

const { sandbox, api } = useDemoSandbox();

const inbound = (body: Record<string, unknown>) =>
  call(sandbox, 'POST', '/_sandbox/inbound-message', { key: null, body });

describe('sending messages', () => {
  it('sends a text message to an assigned contact (201, outgoing)', async () => {
    const res = await api.post('/v1/messages', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      text: 'On its way!',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      isOutgoing: true,
      text: 'On its way!',
      type: 'text',
    });
    expect(res.body.messagePlatformId).toMatch(/^pm_/);
    const conv = (await api.get('/v1/conversations', { query: { contactId: DEMO.contacts.maria } })).body
      .data[0];
    expect(conv).toMatchObject({ lastMessage: 'On its way!', lastMessageIsOutgoing: true, unreadCount: 0 });
  });

  it('refuses a message to a contact without assignee: 422 contact_unassigned', async () => {
    const res = await api.post('/v1/messages', {
      conversationId: DEMO.conversations.priya,
      contactId: DEMO.contacts.priya,
      text: 'Hello?',
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'contact_unassigned' });
    expect(res.body.error.message).toContain('assignee');
  });

  it('refuses a reaction to a contact without assignee', async () => {
    const res = await api.post('/v1/messages/reactions', {
      conversationId: DEMO.conversations.priya,
      contactId: DEMO.contacts.priya,
      messagePlatformId: 'pm_demo_0201',
      emoji: '👍',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('contact_unassigned');
  });

  it('refuses sending to a blocked contact: 422 contact_blocked', async () => {
    const opened = await inbound({ contactId: DEMO.contacts.kenji, text: 'hi' });
    await api.post(`/v1/contacts/${DEMO.contacts.kenji}/block`);
    const res = await api.post('/v1/messages', {
      conversationId: opened.body.conversation.id,
      contactId: DEMO.contacts.kenji,
      text: 'Hi',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('contact_blocked');
  });

  it('refuses an inbound message from a blocked contact', async () => {
    const res = await inbound({ contactId: DEMO.contacts.anaGomez, text: 'let me in' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('contact_blocked');
  });

  it('sends an attachment and lists it as conversation media', async () => {
    const res = await api.post('/v1/messages', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      attachment: { url: 'https://files.demo.test/catalogue.pdf', type: 'document', name: 'catalogue.pdf' },
    });
    expect(res.status).toBe(201);
    const media = await api.get(`/v1/conversations/${DEMO.conversations.maria}/media`);
    expect(media.body.total).toBe(2);
    expect(media.body.data[0]).toMatchObject({
      messageId: res.body.id,
      type: 'document',
      filename: 'catalogue.pdf',
    });
  });

  it('needs text or an attachment, and a contact of the conversation', async () => {
    const empty = await api.post('/v1/messages', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
    });
    expect(empty.body.error.details[0]).toMatchObject({ param: 'text' });
    const stranger = await api.post('/v1/messages', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.john,
      text: 'x',
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.details[0].param).toBe('contactId');
  });

  it('sends an approved template with its parameters, refuses a pending one', async () => {
    const res = await api.post('/v1/message-templates/send', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      templateId: DEMO.templates.orderUpdate,
      bodyParameters: ['Maria', '#42'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'template',
      text: 'Hi Maria, your order #42 is on its way.',
      isOutgoing: true,
    });
    const pending = await api.post('/v1/message-templates/send', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      templateId: DEMO.templates.pending,
    });
    expect(pending.status).toBe(422);
    expect(pending.body.error.code).toBe('template_not_approved');
    const unassigned = await api.post('/v1/message-templates/send', {
      conversationId: DEMO.conversations.priya,
      contactId: DEMO.contacts.priya,
      templateId: DEMO.templates.welcome,
      bodyParameters: ['Priya'],
    });
    expect(unassigned.body.error.code).toBe('contact_unassigned');
  });
});

describe('reactions', () => {
  const react = (emoji: string, messagePlatformId = 'pm_demo_0003') =>
    api.post('/v1/messages/reactions', {
      conversationId: DEMO.conversations.maria,
      contactId: DEMO.contacts.maria,
      messagePlatformId,
      emoji,
    });
  const reactionOf = async (platformId: string) =>
    (await api.get('/v1/messages', { query: { conversationId: DEMO.conversations.maria } })).body.data.find(
      (m: { messagePlatformId: string }) => m.messagePlatformId === platformId,
    ).reaction;

  it('sets a reaction and an empty emoji removes it', async () => {
    const res = await react('👍');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await reactionOf('pm_demo_0003')).toBe('👍');
    expect((await react('')).body).toEqual({ success: true });
    expect(await reactionOf('pm_demo_0003')).toBeNull();
  });

  it('answers 404 for an unknown platform message id', async () => {
    const res = await react('👍', 'pm_unknown');
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('messagePlatformId');
  });

  it('requires every member, emoji included', async () => {
    const res = await api.post('/v1/messages/reactions', { conversationId: DEMO.conversations.maria });
    expect(res.body.error.details.map((d: { param: string }) => d.param).sort()).toEqual([
      'contactId',
      'emoji',
      'messagePlatformId',
    ]);
  });
});

describe('opening conversations', () => {
  it('creates a conversation on a connected channel (201)', async () => {
    const res = await api.post('/v1/conversations', {
      contactId: DEMO.contacts.chen,
      channelId: DEMO.channels.main,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      channelId: DEMO.channels.main,
      platformType: 'WHATSAPP',
      contacts: [{ id: DEMO.contacts.chen, name: 'Chen Wei', phone: '8613812345678' }],
      unreadCount: 0,
    });
  });

  it('returns the open conversation for the pair instead of a new one (200)', async () => {
    const res = await api.post('/v1/conversations', {
      contactId: DEMO.contacts.maria,
      channelId: DEMO.channels.main,
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(DEMO.conversations.maria);
    const again = await api.post('/v1/conversations', {
      contactId: DEMO.contacts.chen,
      channelId: DEMO.channels.main,
    });
    const third = await api.post('/v1/conversations', {
      contactId: DEMO.contacts.chen,
      channelId: DEMO.channels.main,
    });
    expect(third.body.id).toBe(again.body.id);
  });

  it('refuses a disconnected channel: 422 channel_not_connected', async () => {
    const res = await api.post('/v1/conversations', {
      contactId: DEMO.contacts.chen,
      channelId: DEMO.channels.oldLine,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('channel_not_connected');
  });

  it('refuses a blocked contact and an unknown channel', async () => {
    expect(
      (
        await api.post('/v1/conversations', {
          contactId: DEMO.contacts.anaGomez,
          channelId: DEMO.channels.main,
        })
      ).body.error.code,
    ).toBe('contact_blocked');
    expect(
      (await api.post('/v1/conversations', { contactId: DEMO.contacts.chen, channelId: UNKNOWN_ID })).status,
    ).toBe(404);
  });

  it('requires contactId and channelId', async () => {
    const res = await api.post('/v1/conversations', {});
    expect(res.body.error.details.map((d: { param: string }) => d.param)).toEqual(['contactId', 'channelId']);
  });
});
