// One method per CRM operation, one place each. Operations of docs/CRM-API.md §4 are plain;
// the assumed ones are marked `assumed: docs/CRM-API.md A<n>`. No budget, no retries: the
// gateway adds those. Nothing else in the engine performs HTTP against the CRM.
import type * as In from './crm-client-types';
import type { DataList, MessageTemplate } from './crm-client-types';
import { CrmHttp, type CrmHttpOptions, type Query } from './crm-http';
import type {
  Broadcast,
  Channel,
  Contact,
  ContactStage,
  Conversation,
  ConversationPage,
  CustomField,
  MediaItem,
  MediaPage,
  Member,
  Message,
  PageWithTotals,
  Segment,
  Tag,
  Uuid,
  WebhookSubscription,
} from './crm-types';

const id = (value: string) => encodeURIComponent(value);
const q = (query: object | undefined) => query as Query | undefined;

export class CrmClient {
  private readonly http: CrmHttp;

  constructor(options: CrmHttpOptions) {
    this.http = new CrmHttp(options);
  }

  setBaseUrl(url: string): void {
    this.http.setBaseUrl(url);
  }

  // Contacts
  listContacts(query?: In.ContactQuery): Promise<PageWithTotals<Contact>> {
    return this.http.request('listContacts', { method: 'GET', path: '/v1/contacts', query: q(query) });
  }
  getContact(contactId: Uuid): Promise<Contact> {
    return this.http.request('getContact', { method: 'GET', path: `/v1/contacts/${id(contactId)}` });
  }
  /** assumed: docs/CRM-API.md A2 */
  createContact(input: In.CreateContactInput): Promise<Contact> {
    return this.http.request('createContact', { method: 'POST', path: '/v1/contacts', body: input });
  }
  /** assumed: docs/CRM-API.md A4 */
  updateContact(contactId: Uuid, patch: In.UpdateContactInput): Promise<Contact> {
    return this.http.request('updateContact', {
      method: 'PATCH',
      path: `/v1/contacts/${id(contactId)}`,
      body: patch,
    });
  }
  /** assumed: docs/CRM-API.md A5 */
  async deleteContact(contactId: Uuid): Promise<void> {
    await this.http.request('deleteContact', { method: 'DELETE', path: `/v1/contacts/${id(contactId)}` });
  }
  addTag(contactId: Uuid, tagId: Uuid): Promise<Contact> {
    return this.http.request('addTag', {
      method: 'POST',
      path: `/v1/contacts/${id(contactId)}/tags/${id(tagId)}`,
    });
  }
  removeTag(contactId: Uuid, tagId: Uuid): Promise<Contact> {
    return this.http.request('removeTag', {
      method: 'DELETE',
      path: `/v1/contacts/${id(contactId)}/tags/${id(tagId)}`,
    });
  }
  /** assumed: docs/CRM-API.md A6 (PUT /v1/contacts/{id}/stage; null clears the stage) */
  setStage(contactId: Uuid, stageId: Uuid | null): Promise<Contact> {
    const path = `/v1/contacts/${id(contactId)}/stage`;
    return this.http.request('setStage', { method: 'PUT', path, body: { stageId } });
  }
  blockContact(contactId: Uuid): Promise<Contact> {
    return this.http.request('blockContact', { method: 'POST', path: `/v1/contacts/${id(contactId)}/block` });
  }
  unblockContact(contactId: Uuid): Promise<Contact> {
    return this.http.request('unblockContact', {
      method: 'POST',
      path: `/v1/contacts/${id(contactId)}/unblock`,
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
  /** assumed: docs/CRM-API.md A7 */
  countConversations(query?: In.ConversationQuery): Promise<{ count: number }> {
    return this.http.request('countConversations', {
      method: 'GET',
      path: '/v1/conversations/count',
      query: q(query),
    });
  }
  openConversation(input: In.OpenConversationInput): Promise<Conversation> {
    return this.http.request('openConversation', { method: 'POST', path: '/v1/conversations', body: input });
  }
  listConversationMedia(conversationId: Uuid, query?: In.PageQuery): Promise<MediaPage<MediaItem>> {
    const path = `/v1/conversations/${id(conversationId)}/media`;
    return this.http.request('listConversationMedia', { method: 'GET', path, query: q(query) });
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
  /** assumed: docs/SANDBOX.md (a sandbox addition beyond docs/CRM-API.md A10) */
  createTag(input: In.CreateTagInput): Promise<Tag> {
    return this.http.request('createTag', { method: 'POST', path: '/v1/tags', body: input });
  }
  /** assumed: docs/CRM-API.md A10 */
  updateTag(tagId: Uuid, patch: In.UpdateTagInput): Promise<Tag> {
    return this.http.request('updateTag', { method: 'PATCH', path: `/v1/tags/${id(tagId)}`, body: patch });
  }
  /** assumed: docs/CRM-API.md A10 */
  async deleteTag(tagId: Uuid): Promise<void> {
    await this.http.request('deleteTag', { method: 'DELETE', path: `/v1/tags/${id(tagId)}` });
  }

  // Contact stages
  /** assumed: docs/CRM-API.md A11 (not paged) */
  listStages(): Promise<DataList<ContactStage>> {
    return this.http.request('listStages', { method: 'GET', path: '/v1/contact-stages' });
  }
  createStage(input: In.CreateStageInput): Promise<ContactStage> {
    return this.http.request('createStage', { method: 'POST', path: '/v1/contact-stages', body: input });
  }
  /** assumed: docs/CRM-API.md A11 */
  updateStage(stageId: Uuid, patch: In.UpdateStageInput): Promise<ContactStage> {
    const path = `/v1/contact-stages/${id(stageId)}`;
    return this.http.request('updateStage', { method: 'PATCH', path, body: patch });
  }
  async deleteStage(stageId: Uuid, transferToStageId: Uuid): Promise<void> {
    const path = `/v1/contact-stages/${id(stageId)}`;
    await this.http.request('deleteStage', { method: 'DELETE', path, body: { transferToStageId } });
  }

  // Segments
  createSegment(input: In.CreateSegmentInput): Promise<Segment> {
    return this.http.request('createSegment', { method: 'POST', path: '/v1/segments', body: input });
  }
  /** assumed: docs/CRM-API.md A12 */
  listSegments(): Promise<DataList<Segment>> {
    return this.http.request('listSegments', { method: 'GET', path: '/v1/segments' });
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
  /** assumed: docs/CRM-API.md A13 */
  createCustomField(input: In.CreateCustomFieldInput): Promise<CustomField> {
    return this.http.request('createCustomField', { method: 'POST', path: '/v1/custom-fields', body: input });
  }
  updateCustomField(fieldId: Uuid, patch: In.UpdateCustomFieldInput): Promise<CustomField> {
    const path = `/v1/custom-fields/${id(fieldId)}`;
    return this.http.request('updateCustomField', { method: 'PATCH', path, body: patch });
  }
  /** assumed: docs/CRM-API.md A13 */
  archiveCustomField(fieldId: Uuid): Promise<CustomField> {
    const path = `/v1/custom-fields/${id(fieldId)}/archive`;
    return this.http.request('archiveCustomField', { method: 'PATCH', path });
  }
  /** assumed: docs/CRM-API.md A13 */
  restoreCustomField(fieldId: Uuid): Promise<CustomField> {
    const path = `/v1/custom-fields/${id(fieldId)}/restore`;
    return this.http.request('restoreCustomField', { method: 'PATCH', path });
  }
  async deleteCustomField(fieldId: Uuid): Promise<void> {
    await this.http.request('deleteCustomField', {
      method: 'DELETE',
      path: `/v1/custom-fields/${id(fieldId)}`,
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
  listBroadcasts(query?: In.PageQuery): Promise<PageWithTotals<Broadcast>> {
    return this.http.request('listBroadcasts', { method: 'GET', path: '/v1/broadcasts', query: q(query) });
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
    await this.http.request('deleteWebhook', { method: 'DELETE', path: `/v1/webhooks/${id(webhookId)}` });
  }
}

/** Every operation of the client: what the gateway wraps with budget and retries. */
export type CrmOperation = Exclude<keyof CrmClient, 'setBaseUrl'>;

export const CRM_OPERATIONS: readonly CrmOperation[] = Object.getOwnPropertyNames(CrmClient.prototype).filter(
  (name): name is CrmOperation => name !== 'constructor' && name !== 'setBaseUrl',
);
