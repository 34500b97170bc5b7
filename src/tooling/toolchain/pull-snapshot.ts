// `crm-rules snapshot`: the CRM's directory (tags, stages, channels, members, custom fields with
// their options, templates) read through the budget into a CrmSnapshot.
import { allPages, type CliCrm } from './cli-crm';
import { snapshotOf, type CrmSnapshot } from '../../language/crm-terms/crm-snapshot';

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
  return snapshotOf({ tags, stages, channels, members, customFields: fields, templates }, crm.baseUrl, now);
}
