// One method per CRM operation, one place each. Operations of docs/CRM-API.md §4 are plain;
// the assumed ones are marked `assumed: docs/CRM-API.md A<n>`. No budget, no retries: the
// gateway adds those. Nothing else in the engine performs HTTP against the CRM.
import type * as In from './crm-client-types';
import type { DataList, MessageTemplate } from './crm-client-types';
import { crmPath, CrmHttp, type CrmHttpOptions, type Query } from './crm-http';
import type {
  Channel,
  Contact,
  ContactStage,
  Conversation,
  ConversationPage,
  CustomField,
  Member,
  Message,
  PageWithTotals,
  Segment,
  Tag,
  Uuid,
  WebhookSubscription,
} from '@crm-rules/crm-contract';

const q = (query: object | undefined) => query as Query | undefined;

export class CrmClient {
  private readonly http: CrmHttp;

  constructor(options: CrmHttpOptions) {
    this.http = new CrmHttp(options);
  }

  // Contacts
  listContacts(query?: In.ContactQuery): Promise<PageWithTotals<Contact>> {
    return this.http.request('listContacts', { method: 'GET', path: '/v1/contacts', query: q(query) });
  }
  async getContact(contactId: Uuid): Promise<Contact> {
    return this.http.request('getContact', {
      method: 'GET',
      path: crmPath('getContact', '/v1/contacts/{contactId}', { contactId }),
    });
  }
  /** assumed: docs/CRM-API.md A2 */
  createContact(input: In.CreateContactInput): Promise<Contact> {
    return this.http.request('createContact', { method: 'POST', path: '/v1/contacts', body: input });
  }
  /** assumed: docs/CRM-API.md A4 */
  async updateContact(contactId: Uuid, patch: In.UpdateContactInput): Promise<Contact> {
    return this.http.request('updateContact', {
      method: 'PATCH',
      path: crmPath('updateContact', '/v1/contacts/{contactId}', { contactId }),
      body: patch,
    });
  }
  async addTag(contactId: Uuid, tagId: Uuid): Promise<Contact> {
    return this.http.request('addTag', {
      method: 'POST',
      path: crmPath('addTag', '/v1/contacts/{contactId}/tags/{tagId}', { contactId, tagId }),
    });
  }
  async removeTag(contactId: Uuid, tagId: Uuid): Promise<Contact> {
    return this.http.request('removeTag', {
      method: 'DELETE',
      path: crmPath('removeTag', '/v1/contacts/{contactId}/tags/{tagId}', { contactId, tagId }),
    });
  }
  /** assumed: docs/CRM-API.md A6 (PUT /v1/contacts/{id}/stage; null clears the stage) */
  async setStage(contactId: Uuid, stageId: Uuid | null): Promise<Contact> {
    const path = crmPath('setStage', '/v1/contacts/{contactId}/stage', { contactId });
    return this.http.request('setStage', { method: 'PUT', path, body: { stageId } });
  }
  async blockContact(contactId: Uuid): Promise<Contact> {
    return this.http.request('blockContact', {
      method: 'POST',
      path: crmPath('blockContact', '/v1/contacts/{contactId}/block', { contactId }),
    });
  }
  async unblockContact(contactId: Uuid): Promise<Contact> {
    return this.http.request('unblockContact', {
      method: 'POST',
      path: crmPath('unblockContact', '/v1/contacts/{contactId}/unblock', { contactId }),
    });
  }

  // Conversations and messages
  listConversations(query?: In.ConversationQuery): Promise<ConversationPage<Conversation>> {
    return this.http.request('listConversations', {
      method: 'GET',
      path: '/v1/conversations',
      query: q(query),
    });
  }
  openConversation(input: In.OpenConversationInput): Promise<Conversation> {
    return this.http.request('openConversation', { method: 'POST', path: '/v1/conversations', body: input });
  }
  /** assumed: docs/CRM-API.md A8 */
  listMessages(query: In.MessageQuery): Promise<ConversationPage<Message>> {
    return this.http.request('listMessages', { method: 'GET', path: '/v1/messages', query: q(query) });
  }
  /** assumed: docs/CRM-API.md A9 */
  sendMessage(input: In.SendMessageInput): Promise<Message> {
    return this.http.request('sendMessage', { method: 'POST', path: '/v1/messages', body: input });
  }
  reactToMessage(input: In.ReactionInput): Promise<{ success: boolean }> {
    return this.http.request('reactToMessage', {
      method: 'POST',
      path: '/v1/messages/reactions',
      body: input,
    });
  }

  // Tags
  /** assumed: docs/CRM-API.md A10 */
  listTags(query?: In.TagQuery): Promise<PageWithTotals<Tag>> {
    return this.http.request('listTags', { method: 'GET', path: '/v1/tags', query: q(query) });
  }

  // Contact stages
  /** assumed: docs/CRM-API.md A11 (not paged) */
  listStages(): Promise<DataList<ContactStage>> {
    return this.http.request('listStages', { method: 'GET', path: '/v1/contact-stages' });
  }

  // Segments
  createSegment(input: In.CreateSegmentInput): Promise<Segment> {
    return this.http.request('createSegment', { method: 'POST', path: '/v1/segments', body: input });
  }

  // Custom fields
  /** assumed: docs/CRM-API.md A13 */
  listCustomFields(query?: In.CustomFieldQuery): Promise<DataList<CustomField>> {
    return this.http.request('listCustomFields', {
      method: 'GET',
      path: '/v1/custom-fields',
      query: q(query),
    });
  }

  // Users, channels, broadcasts
  listUsers(query?: In.UserQuery): Promise<PageWithTotals<Member>> {
    return this.http.request('listUsers', { method: 'GET', path: '/v1/users', query: q(query) });
  }
  /** assumed: docs/CRM-API.md A15 (response shape: docs/SANDBOX.md) */
  listChannels(query?: In.ChannelQuery): Promise<DataList<Channel>> {
    return this.http.request('listChannels', { method: 'GET', path: '/v1/channels', query: q(query) });
  }

  // Message templates
  /** assumed: docs/CRM-API.md A17 */
  listMessageTemplates(query?: In.MessageTemplateQuery): Promise<PageWithTotals<MessageTemplate>> {
    const path = '/v1/message-templates';
    return this.http.request('listMessageTemplates', { method: 'GET', path, query: q(query) });
  }
  /** assumed: docs/CRM-API.md A17 */
  sendMessageTemplate(input: In.SendTemplateInput): Promise<Message> {
    const path = '/v1/message-templates/send';
    return this.http.request('sendMessageTemplate', { method: 'POST', path, body: input });
  }

  // Webhooks
  createWebhook(input: In.CreateWebhookInput): Promise<WebhookSubscription> {
    return this.http.request('createWebhook', { method: 'POST', path: '/v1/webhooks', body: input });
  }
  /** assumed: docs/CRM-API.md A16 */
  listWebhooks(): Promise<DataList<WebhookSubscription>> {
    return this.http.request('listWebhooks', { method: 'GET', path: '/v1/webhooks' });
  }
  /** assumed: docs/CRM-API.md A16 (a second DELETE answers 404) */
  async deleteWebhook(webhookId: Uuid): Promise<void> {
    await this.http.request('deleteWebhook', {
      method: 'DELETE',
      path: crmPath('deleteWebhook', '/v1/webhooks/{webhookId}', { webhookId }),
    });
  }
}

/** Every operation of the client: what the gateway wraps with budget and retries. */
export type CrmOperation = keyof CrmClient;

export const CRM_OPERATIONS: readonly CrmOperation[] = Object.getOwnPropertyNames(CrmClient.prototype).filter(
  (name): name is CrmOperation => name !== 'constructor',
);
