// Stage deletion transfers contacts to transferToStageId; a custom field holding data
// cannot be deleted (archive instead); option and stage management.
import { DEMO, UNKNOWN_ID } from '../../../test/support/demo-fixture';
import { useDemoSandbox } from './sandbox-test-kit';

jest.setTimeout(60_000);

const { api } = useDemoSandbox();

describe('stages', () => {
  it('creates and updates a stage', async () => {
    const created = await api.post('/v1/contact-stages', {
      name: 'Negotiation',
      color: '#123456',
      description: 'Talking price',
      isInProgress: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Negotiation',
      sortOrder: 3,
      isInProgress: true,
      badge: null,
    });
    const updated = await api.patch(`/v1/contact-stages/${created.body.id}`, { name: 'Negotiating' });
    expect(updated.body).toMatchObject({ name: 'Negotiating', color: '#123456' });
    expect((await api.post('/v1/contact-stages', { name: 'qualified' })).status).toBe(409);
  });

  it('deletes a stage and moves its contacts to transferToStageId', async () => {
    const res = await api.delete(`/v1/contact-stages/${DEMO.stages.newLead}`, {
      transferToStageId: DEMO.stages.qualified,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, id: DEMO.stages.newLead, movedContacts: 2 });
    for (const id of [DEMO.contacts.maria, DEMO.contacts.priya])
      expect((await api.get(`/v1/contacts/${id}`)).body.stageId).toBe(DEMO.stages.qualified);
    expect((await api.get('/v1/contact-stages')).body.data).toHaveLength(2);
  });

  it('requires transferToStageId, an existing one, not the deleted stage', async () => {
    const missing = await api.delete(`/v1/contact-stages/${DEMO.stages.newLead}`);
    expect(missing.body.error.details).toEqual([
      expect.objectContaining({ param: 'transferToStageId', code: 'invalid_type' }),
    ]);
    const unknown = await api.delete(`/v1/contact-stages/${DEMO.stages.newLead}`, {
      transferToStageId: UNKNOWN_ID,
    });
    expect(unknown.status).toBe(404);
    const same = await api.delete(`/v1/contact-stages/${DEMO.stages.newLead}`, {
      transferToStageId: DEMO.stages.newLead,
    });
    expect(same.status).toBe(400);
    expect(same.body.error.details[0].param).toBe('transferToStageId');
    expect((await api.get(`/v1/contacts/${DEMO.contacts.maria}`)).body.stageId).toBe(DEMO.stages.newLead);
  });
});

describe('custom fields', () => {
  it('refuses to delete a field holding data on a contact (409) but archives it', async () => {
    const res = await api.delete(`/v1/custom-fields/${DEMO.customFields.plan}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'custom_field_in_use' });
    expect(res.body.error.message).toContain('archive');
    const archived = await api.patch(`/v1/custom-fields/${DEMO.customFields.plan}/archive`);
    expect(archived.body.status).toBe('ARCHIVED');
    expect((await api.patch(`/v1/custom-fields/${DEMO.customFields.plan}/restore`)).body.status).toBe(
      'ACTIVE',
    );
  });

  it('deletes a field without data', async () => {
    expect((await api.delete(`/v1/custom-fields/${DEMO.customFields.legacy}`)).body).toEqual({
      success: true,
      id: DEMO.customFields.legacy,
    });
    expect((await api.delete(`/v1/custom-fields/${DEMO.customFields.legacy}`)).status).toBe(404);
  });

  it('refuses writes to an archived field', async () => {
    await api.patch(`/v1/custom-fields/${DEMO.customFields.company}/archive`);
    const res = await api.patch(`/v1/contacts/${DEMO.contacts.john}`, { customFields: { company: 'X' } });
    expect(res.status).toBe(400);
  });

  it('creates a select field with a generated fieldKey and updates its options', async () => {
    const created = await api.post('/v1/custom-fields', {
      name: 'Lead Source',
      type: 'SINGLE_SELECT',
      options: [{ label: 'Web' }, { label: 'Fair', color: '#ff0000' }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      fieldKey: 'lead_source',
      status: 'ACTIVE',
      options: [
        { label: 'Web', sortOrder: 0 },
        { label: 'Fair', color: '#ff0000', sortOrder: 1 },
      ],
    });
    const [web] = created.body.options;
    const updated = await api.patch(`/v1/custom-fields/${created.body.id}`, {
      name: 'Source',
      options: [{ id: web.id, label: 'Website' }, { label: 'Referral' }],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.options.map((o: { label: string }) => o.label)).toEqual(['Website', 'Referral']);
    expect(updated.body.options[0].id).toBe(web.id);
    expect(updated.body.fieldKey).toBe('lead_source');
  });

  it('refuses removing an option that holds data, and unknown option ids', async () => {
    const inUse = await api.patch(`/v1/custom-fields/${DEMO.customFields.plan}`, {
      options: [{ label: 'Only' }],
    });
    expect(inUse.status).toBe(409);
    const unknown = await api.patch(`/v1/custom-fields/${DEMO.customFields.plan}`, {
      options: [{ id: UNKNOWN_ID, label: 'X' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].param).toBe('options[0].id');
  });
});
