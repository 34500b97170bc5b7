// Finding records of one organization by id. A record of another organization is
// simply not there: tenancy falls out of looking only inside ctx.org.
import { notFound } from './sandbox-error';
import type { OrgState } from './sandbox-state';

type Collection =
  | 'contacts'
  | 'members'
  | 'stages'
  | 'tags'
  | 'customFields'
  | 'channels'
  | 'conversations'
  | 'webhooks'
  | 'templates'
  | 'segments';

const RESOURCE_NAMES: Record<Collection, string> = {
  contacts: 'contact',
  members: 'member',
  stages: 'contact stage',
  tags: 'tag',
  customFields: 'custom field',
  channels: 'channel',
  conversations: 'conversation',
  webhooks: 'webhook subscription',
  templates: 'message template',
  segments: 'segment',
};

type RecordOf<C extends Collection> = OrgState[C] extends Map<string, infer R> ? R : never;

/** The record, or a 404 resource_not_found naming the resource (and the body member, if given). */
export function mustFind<C extends Collection>(
  org: OrgState,
  collection: C,
  id: string,
  param?: string,
): RecordOf<C> {
  const record = (org[collection] as Map<string, RecordOf<C>>).get(id);
  if (!record) throw notFound(RESOURCE_NAMES[collection], id, param);
  return record;
}
