// Contacts: docs/CRM-API.md §4.3 moves (tag, untag, block, unblock return the full contact and
// keep the rest) and the assumed create, update, stage, delete (docs/CRM-API.md A2, A4, A6, A5).
import { DEMO, UNKNOWN_ID } from '../../../test/support/demo-fixture';
import { uniquePhone } from '../../../test/support/phones';
import { useDemoSandbox } from './sandbox-test-kit';

jest.setTimeout(60_000);

const { api } = useDemoSandbox();

const tagIds = (contact: { tags: { id: string }[] }) => contact.tags.map((t) => t.id);

describe('create and read', () => {
  it('creates a contact (201) with defaults and returns the full contact', async () => {
    const phone = uniquePhone();
    const res = await api.post('/v1/contacts', {
      name: 'Nina New',
      phone,
      tagIds: [DEMO.tags.vip],
      assigneeId: DEMO.members.cara,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Nina New',
      phone,
      email: null,
      avatar: null,
      notes: null,
      status: 'active',
      isBlocked: false,
      sourceMethod: 'MANUAL',
      assigneeId: DEMO.members.cara,
      stageId: null,
      tags: [{ id: DEMO.tags.vip, name: 'vip', color: '#e91e63' }],
      customFields: {},
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastInteractionAt: null,
    });
    expect((await api.get(`/v1/contacts/${res.body.id}`)).body).toEqual(res.body);
  });

  it('requires a digits-only phone with country code', async () => {
    for (const phone of ['+5511987654321', '55 11 98765', '0123456']) {
      const res = await api.post('/v1/contacts', { phone });
      expect(res.body.error.details).toEqual([
        expect.objectContaining({ param: 'phone', code: 'invalid_string' }),
      ]);
    }
    expect((await api.post('/v1/contacts', { name: 'No phone' })).body.error.details[0]).toMatchObject({
      param: 'phone',
      code: 'invalid_type',
    });
  });

  it('refuses a second contact with the same phone (409)', async () => {
    const res = await api.post('/v1/contacts', { phone: '5511987654321' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('resource_conflict');
  });

  it('answers 404 naming the member for an unknown assignee', async () => {
    const res = await api.post('/v1/contacts', { phone: uniquePhone(), assigneeId: UNKNOWN_ID });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('assigneeId');
  });
});

describe('tags', () => {
  it('adds a tag and keeps the existing ones, returning the full contact', async () => {
    const res = await api.post(`/v1/contacts/${DEMO.contacts.kenji}/tags/${DEMO.tags.thanked}`);
    expect(res.status).toBe(200);
    expect(tagIds(res.body)).toEqual([DEMO.tags.customer, DEMO.tags.vip, DEMO.tags.thanked]);
    expect(res.body).toMatchObject({
      id: DEMO.contacts.kenji,
      name: 'Kenji Tanaka',
      stageId: DEMO.stages.customer,
      assigneeId: DEMO.members.ben,
    });
  });

  it('removes one tag and leaves the rest', async () => {
    const res = await api.delete(`/v1/contacts/${DEMO.contacts.kenji}/tags/${DEMO.tags.customer}`);
    expect(res.status).toBe(200);
    expect(tagIds(res.body)).toEqual([DEMO.tags.vip]);
    expect(res.body.phone).toBe('819012345678');
  });

  it('treats adding a present tag as a no-op that keeps updatedAt', async () => {
    const before = (await api.get(`/v1/contacts/${DEMO.contacts.john}`)).body;
    const res = await api.post(`/v1/contacts/${DEMO.contacts.john}/tags/${DEMO.tags.vip}`);
    expect(res.body).toEqual(before);
  });

  it('answers 404 for an unknown tag or contact', async () => {
    expect((await api.post(`/v1/contacts/${DEMO.contacts.john}/tags/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await api.delete(`/v1/contacts/${UNKNOWN_ID}/tags/${DEMO.tags.vip}`)).status).toBe(404);
  });

  it('refuses a body on bodiless moves', async () => {
    expect((await api.post(`/v1/contacts/${DEMO.contacts.john}/block`, { reason: 'spam' })).status).toBe(400);
  });
});

describe('block and unblock', () => {
  it('blocks without touching status or anything else', async () => {
    const before = (await api.get(`/v1/contacts/${DEMO.contacts.fatima}`)).body;
    const res = await api.post(`/v1/contacts/${DEMO.contacts.fatima}/block`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, isBlocked: true, updatedAt: expect.any(String) });
    expect(res.body.status).toBe('archived');
  });

  it('unblocks a blocked contact and returns the full contact', async () => {
    const res = await api.post(`/v1/contacts/${DEMO.contacts.anaGomez}/unblock`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: DEMO.contacts.anaGomez,
      isBlocked: false,
      status: 'active',
      assigneeId: DEMO.members.ben,
    });
  });
});

describe('update, stage and delete', () => {
  it('updates only the given members; tagIds replaces the set', async () => {
    const res = await api.patch(`/v1/contacts/${DEMO.contacts.kenji}`, {
      name: 'Kenji T.',
      tagIds: [DEMO.tags.dormant],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Kenji T.',
      phone: '819012345678',
      stageId: DEMO.stages.customer,
    });
    expect(tagIds(res.body)).toEqual([DEMO.tags.dormant]);
  });

  it('assigns and unassigns with assigneeId', async () => {
    expect(
      (await api.patch(`/v1/contacts/${DEMO.contacts.priya}`, { assigneeId: DEMO.members.ben })).body
        .assigneeId,
    ).toBe(DEMO.members.ben);
    expect(
      (await api.patch(`/v1/contacts/${DEMO.contacts.priya}`, { assigneeId: null })).body.assigneeId,
    ).toBeNull();
  });

  it('writes custom fields by fieldKey, select fields by option id, and checks them', async () => {
    const pro = 'cf000000-0000-4000-8000-0000000000a2';
    const ok = await api.patch(`/v1/contacts/${DEMO.contacts.john}`, {
      customFields: { plan: pro, website: 'https://john.example' },
    });
    expect(ok.body.customFields).toEqual({ plan: pro, website: 'https://john.example' });
    const bad = await api.patch(`/v1/contacts/${DEMO.contacts.john}`, {
      customFields: { plan: 'Gold', website: 'not a url', shoeSize: '42' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { param: string }) => d.param).sort()).toEqual([
      'customFields.plan',
      'customFields.shoeSize',
      'customFields.website',
    ]);
    const cleared = await api.patch(`/v1/contacts/${DEMO.contacts.john}`, {
      customFields: { website: null },
    });
    expect(cleared.body.customFields).toEqual({ plan: pro });
  });

  it('sets and clears the stage with PUT /stage', async () => {
    const set = await api.put(`/v1/contacts/${DEMO.contacts.priya}/stage`, {
      stageId: DEMO.stages.qualified,
    });
    expect(set.status).toBe(200);
    expect(set.body.stageId).toBe(DEMO.stages.qualified);
    expect(
      (await api.put(`/v1/contacts/${DEMO.contacts.priya}/stage`, { stageId: null })).body.stageId,
    ).toBeNull();
    expect((await api.put(`/v1/contacts/${DEMO.contacts.priya}/stage`, {})).status).toBe(400);
    expect((await api.put(`/v1/contacts/${DEMO.contacts.priya}/stage`, { stageId: UNKNOWN_ID })).status).toBe(
      404,
    );
  });

  it('deletes a contact; a second delete and a read are 404', async () => {
    const res = await api.delete(`/v1/contacts/${DEMO.contacts.pedro}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: DEMO.contacts.pedro });
    expect((await api.get(`/v1/contacts/${DEMO.contacts.pedro}`)).status).toBe(404);
    expect((await api.delete(`/v1/contacts/${DEMO.contacts.pedro}`)).status).toBe(404);
  });

  it('shows a renamed tag on every contact that carries it', async () => {
    await api.patch(`/v1/tags/${DEMO.tags.vip}`, { name: 'very-important' });
    const john = await api.get(`/v1/contacts/${DEMO.contacts.john}`);
    expect(john.body.tags).toEqual([{ id: DEMO.tags.vip, name: 'very-important', color: '#e91e63' }]);
  });

  it('takes a deleted tag off every contact', async () => {
    expect((await api.delete(`/v1/tags/${DEMO.tags.vip}`)).status).toBe(200);
    expect(tagIds((await api.get(`/v1/contacts/${DEMO.contacts.kenji}`)).body)).toEqual([DEMO.tags.customer]);
  });
});
