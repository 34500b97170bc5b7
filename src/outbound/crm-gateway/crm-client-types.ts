// Request shapes of the CRM operations (docs/CRM-API.md §4 and its
// assumptions A1–A17). Response shapes live in crm-types.ts.
import type { ContactStatus, SegmentFilters, Uuid } from '@crm-rules/crm-contract';

export interface PageQuery {
  page?: number;
  limit?: number;
}

/** GET /v1/contacts. Parameter names beyond tagIds are not shown in docs/CRM-API.md §4.3: the sandbox's. */
export interface ContactQuery extends PageQuery {
  sortBy?: 'createdAt' | 'name' | 'lastInteractionAt';
  sortOrder?: 'asc' | 'desc';
  /** assumed: docs/CRM-API.md A3 */
  search?: string;
  status?: ContactStatus;
  /** assumed: docs/CRM-API.md A3 */
  isBlocked?: boolean;
  /** assumed: docs/SANDBOX.md (the second boolean filter of docs/CRM-API.md §4.3) */
  isAssigned?: boolean;
  tagIds?: Uuid[];
  /** assumed: docs/CRM-API.md A3 */
  stageIds?: Uuid[];
  /** assumed: docs/CRM-API.md A3 */
  assigneeIds?: Uuid[];
}

/** assumed: docs/CRM-API.md A2 (POST /v1/contacts) */
export interface CreateContactInput {
  name?: string;
  phone: string;
  email?: string;
  avatar?: string;
  assigneeId?: Uuid | null;
  stageId?: Uuid | null;
  tagIds?: Uuid[];
}

/** assumed: docs/CRM-API.md A4 (PATCH /v1/contacts/{id}); `tagIds` replaces the whole set. */
export interface UpdateContactInput {
  name?: string;
  phone?: string;
  email?: string;
  avatar?: string;
  assigneeId?: Uuid | null;
  stageId?: Uuid | null;
  status?: ContactStatus;
  tagIds?: Uuid[];
  customFields?: Record<string, unknown>;
}

/** GET /v1/conversations: the seed's scope and filter enums under the assumed parameter names (docs/CRM-API.md A7). */
export interface ConversationQuery extends PageQuery {
  category?: 'all' | 'my' | 'unassigned';
  quickFilter?: 'Unread' | 'NotReplied';
  status?: 'active' | 'archived';
  /** assumed: docs/CRM-API.md A7 */
  contactId?: Uuid;
  /** assumed: docs/CRM-API.md A7 */
  search?: string;
}

export interface OpenConversationInput {
  contactId: Uuid;
  channelId: Uuid;
}

export interface ReactionInput {
  conversationId: Uuid;
  contactId: Uuid;
  messagePlatformId: string;
  /** An empty string removes the reaction. */
  emoji: string;
}

/** assumed: docs/CRM-API.md A8 (GET /v1/messages) */
export interface MessageQuery extends PageQuery {
  conversationId: Uuid;
}

/** assumed: docs/CRM-API.md A9 (POST /v1/messages); `text` or `attachment`. */
export interface SendMessageInput {
  conversationId: Uuid;
  contactId: Uuid;
  text?: string;
  attachment?: { url: string; type: string; name?: string };
  replyToMessageId?: string;
}

export interface CreateSegmentInput {
  name: string;
  filters: SegmentFilters;
}

/** assumed: docs/CRM-API.md A10 (GET /v1/tags) */
export interface TagQuery extends PageQuery {
  search?: string;
}

/** assumed: docs/CRM-API.md A13 (GET /v1/custom-fields) */
export interface CustomFieldQuery extends PageQuery {
  status?: 'ACTIVE' | 'ARCHIVED';
}

export interface UserQuery extends PageQuery {
  sortBy?: 'name' | 'email' | 'createdAt';
  sortOrder?: 'asc' | 'desc';
  /** assumed: docs/CRM-API.md A14 */
  search?: string;
}

/** assumed: docs/CRM-API.md A15 (GET /v1/channels) */
export interface ChannelQuery {
  platformType?: string;
}

export interface CreateWebhookInput {
  url: string;
  events: string[];
}

/** assumed: docs/CRM-API.md A17 (GET /v1/message-templates) */
export interface MessageTemplateQuery extends PageQuery {
  search?: string;
  status?: string;
}

/** assumed: docs/CRM-API.md A17 (POST /v1/message-templates/send) */
export interface SendTemplateInput {
  conversationId: Uuid;
  contactId: Uuid;
  templateId: Uuid;
  bodyParameters?: string[];
}

/** Message template: shape not shown anywhere; the members the engine may read. */
export interface MessageTemplate {
  id: Uuid;
  name: string;
  status: string;
  [extra: string]: unknown;
}

/** `{ data }` lists (docs/CRM-API.md A1; unpaged: stages, segments, channels, webhooks). */
export interface DataList<T> {
  data: T[];
}
