// `crm-rules snapshot`: the CRM's directory (tags, stages, channels, members, custom fields with
// their options, templates) read through the budget into a CrmSnapshot.
import { allPages, type CliCrm } from './cli-crm';
import { SNAPSHOT_FORMAT, type CrmSnapshot } from '../crm-contract/crm-snapshot';

const PAGE = 100;

export async function pullSnapshot(crm: CliCrm, now = new Date()): Promise<CrmSnapshot> {
  const tags = await allPages(crm, 'listTags', (c, page) => c.listTags({ page, limit: PAGE }));
  const stages = (await crm.call('listStages', (c) => c.listStages())).data;
  const channels = (await crm.call('listChannels', (c) => c.listChannels())).data;
  const members = await allPages(crm, 'listUsers', (c, page) => c.listUsers({ page, limit: PAGE }));
  const fields = (await crm.call('listCustomFields', (c) => c.listCustomFields())).data;
  const templates = await allPages(crm, 'listMessageTemplates', (c, page) =>
    c.listMessageTemplates({ page, limit: PAGE }),
  );
  const byName = <T extends { name: string }>(list: T[]) =>
    [...list].sort((a, b) => a.name.localeCompare(b.name));
  return {
    format: SNAPSHOT_FORMAT,
    takenAt: now.toISOString(),
    source: crm.baseUrl,
    tags: byName(tags.map((t) => ({ id: t.id, name: t.name }))),
    stages: stages.map((s) => ({ id: s.id, name: s.name })),
    channels: byName(channels.map((c) => ({ id: c.id, name: c.name, status: c.status }))),
    members: byName(members.map((m) => ({ id: m.id, name: m.name, email: m.email, status: m.status }))),
    customFields: fields.map((f) => ({
      id: f.id,
      fieldKey: f.fieldKey,
      name: f.name,
      type: f.type,
      status: f.status,
      options: (f.options ?? []).map((o) => ({ id: o.id, label: o.label })),
    })),
    templates: byName(
      templates.map((t) => ({
        id: t.id,
        name: t.name,
        status: t.status,
        ...(typeof t.language === 'string' ? { language: t.language } : {}),
      })),
    ),
  };
}
