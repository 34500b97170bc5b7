// In-memory state of the emulated CRM: one OrgState per organization plus the API
// keys that lead to them. Records hold references by id (tags, stage, assignee), and
// views.ts turns them into the API shapes, so a renamed tag shows on every contact.
import type {
  Broadcast,
  ContactStage,
  Contact,
  CustomField,
  Member,
  MediaItem,
  Message,
  Segment,
  Tag,
  Channel,
} from '@crm-rules/crm-contract';
import { ContactOrders } from './contact-order';

export interface ApiKeyRecord {
  key: string;
  name: string;
  orgId: string;
  scopes: ReadonlySet<string>;
  revoked: boolean;
  /** The member who created the key: "my" conversations are those of contacts assigned to them. */
  memberId: string | null;
}

/** The API Contact with tags held by id (views.ts resolves them) and custom fields always present. */
export interface ContactRecord extends Omit<Contact, 'tags' | 'customFields'> {
  tagIds: string[];
  customFields: Record<string, unknown>;
}

export interface ConversationRecord {
  id: string;
  channelId: string;
  contactId: string;
  status: 'active' | 'archived';
  lastMessage: string | null;
  lastMessageAt: string | null;
  lastMessageIsOutgoing: boolean;
  unreadCount: number;
  createdAt: string;
}

export interface MessageRecord extends Message {
  /** Extra member beyond crm-types Message: the emoji reaction set through the API, if any. */
  reaction: string | null;
  attachment: { url: string; type: string; name: string } | null;
  replyToMessageId: string | null;
}

export interface MediaRecord extends MediaItem {
  conversationId: string;
}

export interface MemberRecord extends Member {
  createdAt: string;
}

export interface BroadcastRecord extends Broadcast {
  createdAt: string;
}

export interface TemplateRecord {
  id: string;
  name: string;
  language: string;
  category: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED';
  body: string;
  createdAt: string;
}

export interface WebhookRecord {
  id: string;
  url: string;
  events: string[];
  secret: string;
  enabled: boolean;
  consecutiveFailures: number;
  createdAt: string;
  disabledAt: string | null;
}

export interface OrgState {
  id: string;
  name: string;
  members: Map<string, MemberRecord>;
  stages: Map<string, ContactStage>;
  tags: Map<string, Tag & { createdAt: string }>;
  customFields: Map<string, CustomField>;
  channels: Map<string, Channel>;
  contacts: Map<string, ContactRecord>;
  /** The contacts in list order; every write to `contacts` tells it (contact-order.ts). */
  contactOrders: ContactOrders;
  conversations: Map<string, ConversationRecord>;
  messages: Map<string, MessageRecord>;
  media: Map<string, MediaRecord>;
  segments: Map<string, Segment>;
  broadcasts: Map<string, BroadcastRecord>;
  templates: Map<string, TemplateRecord>;
  webhooks: Map<string, WebhookRecord>;
  /** Phone → the id the next POST /v1/contacts with that phone gets (fixture contactIdsByPhone). */
  reservedContactIds: Map<string, string>;
}

export interface SandboxState {
  orgs: Map<string, OrgState>;
  apiKeys: Map<string, ApiKeyRecord>;
}

export function emptyOrg(id: string, name: string): OrgState {
  const contacts = new Map<string, ContactRecord>();
  return {
    id,
    name,
    members: new Map(),
    stages: new Map(),
    tags: new Map(),
    customFields: new Map(),
    channels: new Map(),
    contacts,
    contactOrders: new ContactOrders(contacts),
    conversations: new Map(),
    messages: new Map(),
    media: new Map(),
    segments: new Map(),
    broadcasts: new Map(),
    templates: new Map(),
    webhooks: new Map(),
    reservedContactIds: new Map(),
  };
}

/** What every operation gets: its organization, a clock and the event sink. */
export interface OpContext {
  org: OrgState;
  now(): Date;
  emit(type: string, data: unknown): void;
  /** The calling key; absent for control-surface operations. */
  apiKey?: ApiKeyRecord;
}
