// Lists beyond contacts: conversations (category, quickFilter, status, count), users,
// broadcasts, channels, tags, stages, segments, custom fields, templates, messages.
import { DEMO, KEYS } from '../../../test/support/demo-fixture';
import { call } from '../../../test/support/http';
import { useDemoSandbox } from './sandbox-test-kit';

jest.setTimeout(60_000);

const { sandbox, api } = useDemoSandbox();

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);

describe('conversations list', () => {
  it('returns both statuses when status is omitted', async () => {
    const all = await api.get('/v1/conversations', { query: { limit: 100 } });
    expect(all.body.data).toHaveLength(5);
    expect(ids(await api.get('/v1/conversations', { query: { status: 'archived' } }))).toEqual([
      DEMO.conversations.lukas,
    ]);
    expect((await api.get('/v1/conversations', { query: { status: 'active' } })).body.data).toHaveLength(4);
  });

  it('filters by category all, my and unassigned', async () => {
    expect(ids(await api.get('/v1/conversations', { query: { category: 'unassigned' } }))).toEqual([
      DEMO.conversations.priya,
    ]);
    const mine = await api.get('/v1/conversations', { query: { category: 'my' } }); // sk_demo_full belongs to Ana
    expect(ids(mine).sort()).toEqual([DEMO.conversations.maria, DEMO.conversations.lukas].sort());
    const bens = await call(sandbox, 'GET', '/v1/conversations', {
      key: KEYS.contactsOnly,
      query: { category: 'my' },
    });
    expect(bens.status).toBe(403); // contacts-only key lacks conversations.read
    expect((await api.get('/v1/conversations', { query: { category: 'everyone' } })).status).toBe(400);
  });

  it('filters by quickFilter Unread and NotReplied', async () => {
    const unread = await api.get('/v1/conversations', { query: { quickFilter: 'Unread' } });
    expect(ids(unread).sort()).toEqual(
      [
        DEMO.conversations.maria,
        DEMO.conversations.john,
        DEMO.conversations.priya,
        DEMO.conversations.kenji,
      ].sort(),
    );
    const notReplied = await api.get('/v1/conversations', {
      query: { quickFilter: 'NotReplied', status: 'active' },
    });
    expect(ids(notReplied)).toContain(DEMO.conversations.priya);
    expect(ids(notReplied)).not.toContain(DEMO.conversations.lukas);
  });

  it('counts conversations with the same filters', async () => {
    expect((await api.get('/v1/conversations/count')).body).toEqual({ count: 5 });
    expect((await api.get('/v1/conversations/count', { query: { category: 'unassigned' } })).body).toEqual({
      count: 1,
    });
  });

  it('orders by most recent message first', async () => {
    const res = await api.get('/v1/conversations', { query: { status: 'active' } });
    const at = res.body.data.map((c: { lastMessageAt: string }) => c.lastMessageAt);
    expect(at).toEqual([...at].sort().reverse());
  });
});

describe('other lists', () => {
  it('lists users sorted by name by default, by email or createdAt on request', async () => {
    const res = await api.get('/v1/users');
    expect(res.body.data.map((m: { name: string }) => m.name)).toEqual([
      'Ana Ops',
      'Ben Sales',
      'Cara Support',
      'Dan Former',
    ]);
    const byCreated = await api.get('/v1/users', { query: { sortBy: 'createdAt', sortOrder: 'desc' } });
    expect(byCreated.body.data[0].name).toBe('Cara Support');
    expect(Object.keys(res.body.data[0]).sort()).toEqual([
      'avatar',
      'email',
      'id',
      'jobTitle',
      'name',
      'phoneNumber',
      'role',
      'status',
    ]);
    expect(ids(await api.get('/v1/users', { query: { search: 'ben@' } }))).toEqual([DEMO.members.ben]);
  });

  it('lists broadcasts most recent first', async () => {
    const res = await api.get('/v1/broadcasts');
    expect(res.body.data.map((b: { name: string }) => b.name)).toEqual(['Summer teaser', 'Spring sale']);
  });

  it('lists channels with their status and filters by platformType', async () => {
    const res = await api.get('/v1/channels');
    expect(res.body.data).toEqual([
      { id: DEMO.channels.main, name: 'Main WhatsApp', platformType: 'WHATSAPP', status: 'connected' },
      { id: DEMO.channels.oldLine, name: 'Old Line', platformType: 'WHATSAPP', status: 'disconnected' },
    ]);
    expect((await api.get('/v1/channels', { query: { platformType: 'SMS' } })).body.data).toEqual([]);
  });

  it('lists tags paged, stages unpaged in order, segments and custom fields by status', async () => {
    const tags = await api.get('/v1/tags', { query: { limit: 2 } });
    expect(tags.body).toMatchObject({ total: 6, totalPages: 3 });
    const stages = await api.get('/v1/contact-stages');
    expect(stages.body.data.map((s: { name: string }) => s.name)).toEqual([
      'New lead',
      'Qualified',
      'Customer',
    ]);
    expect((await api.get('/v1/segments')).body.data).toHaveLength(1);
    await api.patch(`/v1/custom-fields/${DEMO.customFields.legacy}/archive`);
    expect(ids(await api.get('/v1/custom-fields', { query: { status: 'ARCHIVED' } }))).toEqual([
      DEMO.customFields.legacy,
    ]);
    expect((await api.get('/v1/custom-fields', { query: { status: 'ACTIVE' } })).body.data).toHaveLength(3);
  });

  it('lists approved message templates by default', async () => {
    const res = await api.get('/v1/message-templates');
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(['order_update', 'welcome']);
    expect(ids(await api.get('/v1/message-templates', { query: { status: 'PENDING' } }))).toEqual([
      DEMO.templates.pending,
    ]);
  });

  it('lists messages of a conversation newest first', async () => {
    const res = await api.get('/v1/messages', { query: { conversationId: DEMO.conversations.maria } });
    expect(res.body.total).toBe(4);
    expect(res.body.data[0].messagePlatformId).toBe('pm_demo_0004');
    expect((await api.get('/v1/messages')).body.error.details).toEqual([
      expect.objectContaining({ param: 'conversationId', code: 'invalid_type' }),
    ]);
  });
});
