// Shapes of the CRM's public API (docs/CRM-API.md §2 and §2.10). Shared by the
// gateway (which calls the CRM), the sandbox (which emulates it) and the engine.
// Nothing here imports Nest: these are plain data shapes.

export type Uuid = string;
export type IsoDateTime = string;

export interface Tag {
  id: Uuid;
  name: string;
  color: string;
}

export type ContactStatus = 'active' | 'archived';

export interface Contact {
  id: Uuid;
  name: string;
  phone: string; // digits only, with country code, no '+'
  email: string | null;
  avatar: string | null;
  notes: string | null;
  status: ContactStatus;
  isBlocked: boolean;
  sourceMethod: string;
  assigneeId: Uuid | null;
  stageId: Uuid | null;
  tags: Tag[];
  customFields?: Record<string, unknown>;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
  lastInteractionAt: IsoDateTime | null;
}

export interface Conversation {
  id: Uuid;
  platformType: string;
  channelId: Uuid;
  contacts: { id: Uuid; name: string; phone: string }[];
  lastMessage: string | null;
  lastMessageAt: IsoDateTime | null;
  lastMessageIsOutgoing: boolean;
  unreadCount: number;
}

/** Message shape: not shown in docs/CRM-API.md; decided in docs/SANDBOX.md. */
export interface Message {
  id: Uuid;
  conversationId: Uuid;
  contactId: Uuid;
  messagePlatformId: string;
  isOutgoing: boolean;
  text: string | null;
  type: string;
  createdAt: IsoDateTime;
}

export interface MediaItem {
  id: string;
  messageId: string;
  type: string;
  filename: string;
  fileSize: number;
  url: string;
  uploadedAt: IsoDateTime;
}

export interface PhoneFilter {
  countryCode: string;
  prefix: string;
}

export interface CustomFieldFilter {
  fieldKey: string;
  values: string[];
}

export const SOURCE_METHODS = [
  'SOURCE_A',
  'SOCIAL_A',
  'SOCIAL_B',
  'SOURCE_B',
  'MANUAL',
  'WIDGET',
  'MSG_API_AD',
  'MSG_API_POST',
  'MSG_API_ORGANIC',
  'MSG_HISTORY_SYNC',
  'MSG_CONTACT_SYNC',
  'MSG_LITE',
  'IMPORT',
] as const;
export type SourceMethod = (typeof SOURCE_METHODS)[number];

/** docs/CRM-API.md §2.4: every member optional; same shape in request and response. */
export interface SegmentFilters {
  tagIds?: Uuid[];
  stageIds?: Uuid[];
  assigneeIds?: Uuid[];
  includeUnassigned?: boolean;
  channelIds?: Uuid[];
  createdAfter?: IsoDateTime;
  createdBefore?: IsoDateTime;
  lastUpdatedAfter?: IsoDateTime;
  lastUpdatedBefore?: IsoDateTime;
  lastInteractionAfter?: IsoDateTime;
  lastInteractionBefore?: IsoDateTime;
  phoneFilters?: PhoneFilter[];
  adIds?: string[];
  campaignIds?: string[];
  adSetIds?: string[];
  adUrls?: string[];
  hasConversations?: boolean;
  sourceMethods?: SourceMethod[];
  status?: ContactStatus;
  broadcastIds?: Uuid[];
  isBlocked?: boolean;
  countries?: string[];
  customFieldFilters?: CustomFieldFilter[];
}

export interface Segment {
  id: Uuid;
  name: string;
  filters: SegmentFilters;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}

export interface CustomFieldOption {
  id: Uuid;
  label: string;
  color: string;
  sortOrder: number;
}

export interface CustomField {
  id: Uuid;
  name: string;
  fieldKey: string;
  type: 'TEXT' | 'SINGLE_SELECT' | 'MULTI_SELECT' | 'URL';
  description: string | null;
  status: 'ACTIVE' | 'ARCHIVED';
  options: CustomFieldOption[];
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}

export interface ContactStage {
  id: Uuid;
  name: string;
  description: string | null;
  color: string | null;
  sortOrder: number;
  badge: string | null;
  isInProgress: boolean;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}

export interface Member {
  id: Uuid;
  name: string;
  email: string;
  avatar: string | null;
  phoneNumber: string | null;
  role: string;
  jobTitle: string | null;
  status: string;
}

/** GET /v1/channels: response shape not shown; decided in docs/SANDBOX.md. */
export interface Channel {
  id: Uuid;
  name: string;
  platformType: string;
  status: 'connected' | 'disconnected';
}

export interface Broadcast {
  id: Uuid;
  name: string;
  channelName: string;
  segmentName: string;
  status: string;
  totalCount: number;
  sentCount: number;
  deliveredCount: number;
  readCount: number;
  repliedCount: number;
  failedCount: number;
  skippedCount: number;
  sentAt: IsoDateTime | null;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface WebhookSubscription {
  id: Uuid;
  url: string;
  events: string[];
  /** Present only in the POST /v1/webhooks response. */
  secret?: string;
  enabled?: boolean;
  createdAt?: IsoDateTime;
}

/** docs/CRM-API.md §2.10 */
export interface PageWithTotals<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}
export interface MediaPage<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
  hasNext: boolean;
}
export interface ConversationPage<T> {
  data: T[];
  page: number;
  limit: number;
  hasNext: boolean;
}

/** docs/CRM-API.md §7 */
export interface CrmErrorDetail {
  param: string;
  code: string;
  message: string;
}
export interface CrmErrorBody {
  error: {
    type: string;
    code: string;
    message: string;
    details?: CrmErrorDetail[];
    requestId: string;
  };
}

/** Webhook delivery payload (docs/CRM-API.md A19): {id, type, createdAt, data}; extra members tolerated. */
export interface CrmEvent<T = unknown> {
  id?: string;
  type: string;
  createdAt?: IsoDateTime;
  data: T;
  [extra: string]: unknown;
}

export const EVENT_KINDS = [
  'message.created',
  'message.updated',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'broadcast.completed',
  'broadcast.failed',
  'channel.status.updated',
  'template.status.updated',
  'template.quality.updated',
  'template.category.updated',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
