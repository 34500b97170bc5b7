// The one table the CRM faces are built from: each gateway operation is named here once, as a read
// (a GET) or a write (POST, PUT, PATCH, DELETE). crm-reads.ts hands out the reads, crm-writes.ts
// both; crm-faces.spec.ts holds the table to the HTTP method the client sends.
import type { CrmOperation } from './crm-client';
import type { CrmGateway } from './crm-gateway.service';

/** The operations that only read the CRM. */
export const READ_OPERATIONS = [
  'listContacts',
  'getContact',
  'listConversations',
  'listMessages',
  'listTags',
  'listStages',
  'listCustomFields',
  'listUsers',
  'listChannels',
  'listMessageTemplates',
  'listWebhooks',
] as const satisfies readonly CrmOperation[];

/** The operations that change the CRM. */
export const WRITE_OPERATIONS = [
  'createContact',
  'updateContact',
  'addTag',
  'removeTag',
  'setStage',
  'blockContact',
  'unblockContact',
  'openConversation',
  'sendMessage',
  'reactToMessage',
  'sendMessageTemplate',
  'createSegment',
  'createWebhook',
  'deleteWebhook',
] as const satisfies readonly CrmOperation[];

/** A face holding these operations of the gateway, and nothing else of it. */
export type CrmFace<K extends CrmOperation> = Pick<CrmGateway, K>;

/**
 * The base of a face over the given operations: each is the gateway's own function (its operations
 * are bound arrow properties, so `this` is kept), so every face shares the one budget. No private
 * member: the gateway itself fits where a face is asked.
 */
export function crmFace<K extends CrmOperation>(
  operations: readonly K[],
): new (gateway: CrmGateway) => CrmFace<K> {
  return class {
    constructor(gateway: CrmGateway) {
      for (const op of operations) (this as Record<string, unknown>)[op] = gateway[op];
    }
  } as new (gateway: CrmGateway) => CrmFace<K>;
}
