// docs/CRM-API.md §2.10 envelopes and section 8 page sizes; the contacts list: newest first,
// sort keys and directions, status and boolean filters, repeated tagIds.
import { DEMO } from '../../../test/support/demo-fixture';
import { useDemoSandbox } from './sandbox-test-kit';

jest.setTimeout(60_000);

const { api } = useDemoSandbox();

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);

describe('page sizes', () => {
  it.each<[string, number]>([
    ['/v1/contacts', 100],
    ['/v1/conversations', 100],
    ['/v1/users', 100],
    [`/v1/conversations/${DEMO.conversations.maria}/media`, 200],
  ])('%s accepts limit up to %i and refuses 0 and max+1', async (path, max) => {
    expect((await api.get(path, { query: { limit: max } })).status).toBe(200);
    expect((await api.get(path, { query: { limit: 1 } })).status).toBe(200);
    for (const limit of [0, max + 1]) {
      const res = await api.get(path, { query: { limit } });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        expect.objectContaining({ param: 'limit', code: limit === 0 ? 'too_small' : 'too_big' }),
      ]);
    }
  });

  it('refuses page 0 and non-integer pages', async () => {
    const res = await api.get('/v1/contacts', { query: { page: 0, limit: 'ten' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { param: string; code: string }) => [d.param, d.code])).toEqual([
      ['page', 'too_small'],
      ['limit', 'invalid_type'],
    ]);
  });
});

describe('envelopes', () => {
  it('pages contacts with totals', async () => {
    const res = await api.get('/v1/contacts', { query: { page: 2, limit: 3 } });
    expect(Object.keys(res.body).sort()).toEqual([
      'data',
      'hasNext',
      'hasPrev',
      'limit',
      'page',
      'total',
      'totalPages',
    ]);
    expect(res.body).toMatchObject({
      page: 2,
      limit: 3,
      total: 10,
      totalPages: 4,
      hasNext: true,
      hasPrev: true,
    });
    expect(res.body.data).toHaveLength(3);
    const last = await api.get('/v1/contacts', { query: { page: 4, limit: 3 } });
    expect(last.body).toMatchObject({ hasNext: false, hasPrev: true });
    expect(last.body.data).toHaveLength(1);
    expect((await api.get('/v1/contacts', { query: { page: 9, limit: 3 } })).body.data).toEqual([]);
  });

  it('pages conversations without a total', async () => {
    const res = await api.get('/v1/conversations', { query: { limit: 2 } });
    expect(Object.keys(res.body).sort()).toEqual(['data', 'hasNext', 'limit', 'page']);
    expect(res.body).toMatchObject({ page: 1, limit: 2, hasNext: true });
    const conv = res.body.data[0];
    expect(Object.keys(conv).sort()).toEqual([
      'channelId',
      'contacts',
      'id',
      'lastMessage',
      'lastMessageAt',
      'lastMessageIsOutgoing',
      'platformType',
      'unreadCount',
    ]);
  });

  it('pages media with a total but no totalPages', async () => {
    const res = await api.get(`/v1/conversations/${DEMO.conversations.maria}/media`);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'hasNext', 'limit', 'page', 'total']);
    expect(res.body.total).toBe(1);
    expect(Object.keys(res.body.data[0]).sort()).toEqual([
      'fileSize',
      'filename',
      'id',
      'messageId',
      'type',
      'uploadedAt',
      'url',
    ]);
  });

  it('pages users and broadcasts with totals', async () => {
    for (const path of ['/v1/users', '/v1/broadcasts']) {
      const res = await api.get(path);
      expect(Object.keys(res.body).sort()).toEqual([
        'data',
        'hasNext',
        'hasPrev',
        'limit',
        'page',
        'total',
        'totalPages',
      ]);
    }
  });
});

describe('contacts list', () => {
  it('lists newest first by default', async () => {
    const res = await api.get('/v1/contacts', { query: { limit: 100 } });
    const created = res.body.data.map((c: { createdAt: string }) => c.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(res.body.data[0].id).toBe(DEMO.contacts.pedro);
  });

  it('sorts by name ascending and descending', async () => {
    const asc = await api.get('/v1/contacts', { query: { sortBy: 'name', sortOrder: 'asc', limit: 100 } });
    const names = asc.body.data.map((c: { name: string }) => c.name);
    expect(names[0]).toBe('Ana Gómez');
    const desc = await api.get('/v1/contacts', { query: { sortBy: 'name', sortOrder: 'desc', limit: 100 } });
    expect(desc.body.data.map((c: { name: string }) => c.name)).toEqual([...names].reverse());
  });

  it('sorts by lastInteractionAt with never-interacted contacts last', async () => {
    const res = await api.get('/v1/contacts', { query: { sortBy: 'lastInteractionAt', limit: 100 } });
    const values = res.body.data.map((c: { lastInteractionAt: string | null }) => c.lastInteractionAt);
    const firstNull = values.indexOf(null);
    expect(firstNull).toBeGreaterThan(0);
    expect(values.slice(firstNull).every((v: string | null) => v === null)).toBe(true);
    const dated = values.slice(0, firstNull);
    expect(dated).toEqual([...dated].sort().reverse());
  });

  it('refuses an unknown sort key or direction', async () => {
    const res = await api.get('/v1/contacts', { query: { sortBy: 'phone', sortOrder: 'up' } });
    expect(res.body.error.details.map((d: { code: string }) => d.code)).toEqual([
      'invalid_enum_value',
      'invalid_enum_value',
    ]);
  });

  it('filters by status', async () => {
    const archived = await api.get('/v1/contacts', { query: { status: 'archived' } });
    expect(ids(archived)).toEqual([DEMO.contacts.fatima]);
    expect((await api.get('/v1/contacts', { query: { status: 'active' } })).body.total).toBe(9);
  });

  it('takes repeated tagIds (any of them)', async () => {
    const res = await api.get('/v1/contacts', { query: { tagIds: [DEMO.tags.vip, DEMO.tags.adLead] } });
    expect(ids(res).sort()).toEqual([DEMO.contacts.john, DEMO.contacts.chen, DEMO.contacts.kenji].sort());
  });

  it('refuses comma-separated tagIds', async () => {
    const res = await api.get('/v1/contacts', { query: { tagIds: `${DEMO.tags.vip},${DEMO.tags.adLead}` } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ param: 'tagIds[0]', code: 'invalid_string' });
  });

  it('filters by the two booleans isBlocked and isAssigned', async () => {
    expect(ids(await api.get('/v1/contacts', { query: { isBlocked: true } }))).toEqual([
      DEMO.contacts.anaGomez,
    ]);
    const unassigned = await api.get('/v1/contacts', { query: { isAssigned: false } });
    expect(ids(unassigned).sort()).toEqual(
      [DEMO.contacts.priya, DEMO.contacts.chen, DEMO.contacts.pedro].sort(),
    );
    expect((await api.get('/v1/contacts', { query: { isBlocked: 'yes' } })).status).toBe(400);
  });

  it('filters by stageIds and assigneeIds and searches name, phone and email', async () => {
    const q = await api.get('/v1/contacts', {
      query: { stageIds: DEMO.stages.customer, assigneeIds: DEMO.members.ben },
    });
    expect(ids(q)).toEqual([DEMO.contacts.kenji]);
    expect(ids(await api.get('/v1/contacts', { query: { search: 'silva' } }))).toEqual([DEMO.contacts.maria]);
    expect(ids(await api.get('/v1/contacts', { query: { search: '+1415555' } }))).toEqual([
      DEMO.contacts.john,
    ]);
    expect(ids(await api.get('/v1/contacts', { query: { search: 'olivia@' } }))).toEqual([
      DEMO.contacts.olivia,
    ]);
  });
});
