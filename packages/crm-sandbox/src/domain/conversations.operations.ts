// Conversations (docs/CRM-API.md §4.2 and A7): list with the seed's category and quick
// filters, count, open (returns the open one for the pair if it exists), media.
import { randomUUID } from 'node:crypto';
import type { Conversation, ConversationPage, MediaItem, MediaPage } from '@crm-rules/crm-contract';
import { CONTACT_STATUSES, uuidCheck } from '@crm-rules/crm-contract';
import { checkBody } from './input-checks';
import { mustFind } from './lookups';
import { conversationPage, mediaPage } from './paging';
import { pageRequest, pagingSpec, type ParsedQuery } from './query-checks';
import { unprocessable } from './sandbox-error';
import type { ContactRecord, ConversationRecord, OpContext, OrgState } from './sandbox-state';
import { conversationView } from './views';

const FILTERS = {
  category: { kind: 'enum', values: ['all', 'my', 'unassigned'] },
  quickFilter: { kind: 'enum', values: ['Unread', 'NotReplied'] },
  status: { kind: 'enum', values: CONTACT_STATUSES },
  contactId: { kind: 'uuid' },
  search: { kind: 'string', max: 200 },
} as const;
export const CONVERSATION_COUNT_QUERY = FILTERS;
export const CONVERSATION_LIST_QUERY = { ...pagingSpec(100), ...FILTERS } as const;
export const MEDIA_LIST_QUERY = pagingSpec(200);

type Filters = ParsedQuery<typeof FILTERS>;

function matches(
  ctx: OpContext,
  conv: ConversationRecord,
  contact: ContactRecord | undefined,
  q: Filters,
): boolean {
  if (q.status !== undefined && conv.status !== q.status) return false; // omitted: both statuses
  if (q.contactId !== undefined && conv.contactId !== q.contactId) return false;
  if (q.category === 'unassigned' && contact?.assigneeId) return false;
  if (q.category === 'my' && (!contact?.assigneeId || contact.assigneeId !== ctx.apiKey?.memberId))
    return false;
  if (q.quickFilter === 'Unread' && conv.unreadCount === 0) return false;
  if (q.quickFilter === 'NotReplied' && (conv.lastMessageAt === null || conv.lastMessageIsOutgoing))
    return false;
  if (q.search) {
    const needle = q.search.toLowerCase();
    const hay = [contact?.name, contact?.phone, conv.lastMessage].map((s) => (s ?? '').toLowerCase());
    if (!hay.some((h) => h.includes(needle))) return false;
  }
  return true;
}

/** Most recent activity first; conversations without messages last. */
function filtered(ctx: OpContext, q: Filters): ConversationRecord[] {
  const key = (c: ConversationRecord) => c.lastMessageAt ?? c.createdAt;
  return [...ctx.org.conversations.values()]
    .filter((c) => matches(ctx, c, ctx.org.contacts.get(c.contactId), q))
    .sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : a.id < b.id ? -1 : 1));
}

export function listConversations(
  ctx: OpContext,
  q: ParsedQuery<typeof CONVERSATION_LIST_QUERY>,
): ConversationPage<Conversation> {
  const page = conversationPage(filtered(ctx, q), pageRequest(q));
  return { ...page, data: page.data.map((c) => conversationView(ctx.org, c)) };
}

export function countConversations(ctx: OpContext, q: Filters): { count: number } {
  return { count: filtered(ctx, q).length };
}

/** Refuses messaging when the domain rules (docs/CRM-API.md §1) forbid it. */
export function assertCanMessage(
  org: OrgState,
  contact: ContactRecord,
  channelId: string,
  needsAssignee: boolean,
): void {
  if (contact.isBlocked)
    throw unprocessable(
      'contact_blocked',
      `Contact ${contact.id} is blocked: it can neither send nor receive messages`,
    );
  if (needsAssignee && !contact.assigneeId)
    throw unprocessable(
      'contact_unassigned',
      `Contact ${contact.id} has no assignee (assigneeId); assign a member before messaging it`,
    );
  const channel = mustFind(org, 'channels', channelId, 'channelId');
  if (channel.status !== 'connected')
    throw unprocessable('channel_not_connected', `Channel ${channel.id} (${channel.name}) is not connected`);
}

export function findOpenConversation(
  org: OrgState,
  contactId: string,
  channelId: string,
): ConversationRecord | undefined {
  return [...org.conversations.values()].find(
    (c) => c.contactId === contactId && c.channelId === channelId && c.status === 'active',
  );
}

/** Opens a conversation for the pair, or returns the open one. `created` says which. */
export function openConversation(
  ctx: OpContext,
  body: unknown,
): { created: boolean; conversation: Conversation } {
  const input = checkBody<{ contactId: string; channelId: string }>(
    body,
    { contactId: uuidCheck, channelId: uuidCheck },
    ['contactId', 'channelId'],
  );
  const contact = mustFind(ctx.org, 'contacts', input.contactId, 'contactId');
  mustFind(ctx.org, 'channels', input.channelId, 'channelId');
  assertCanMessage(ctx.org, contact, input.channelId, false);
  const existing = findOpenConversation(ctx.org, contact.id, input.channelId);
  if (existing) return { created: false, conversation: conversationView(ctx.org, existing) };
  return {
    created: true,
    conversation: conversationView(ctx.org, createConversation(ctx, contact.id, input.channelId)),
  };
}

export function createConversation(ctx: OpContext, contactId: string, channelId: string): ConversationRecord {
  const record: ConversationRecord = {
    id: randomUUID(),
    channelId,
    contactId,
    status: 'active',
    lastMessage: null,
    lastMessageAt: null,
    lastMessageIsOutgoing: false,
    unreadCount: 0,
    createdAt: ctx.now().toISOString(),
  };
  ctx.org.conversations.set(record.id, record);
  return record;
}

export function listMedia(
  ctx: OpContext,
  conversationId: string,
  q: ParsedQuery<typeof MEDIA_LIST_QUERY>,
): MediaPage<MediaItem> {
  mustFind(ctx.org, 'conversations', conversationId);
  const items = [...ctx.org.media.values()]
    .filter((m) => m.conversationId === conversationId)
    .sort((a, b) => (a.uploadedAt < b.uploadedAt ? 1 : a.uploadedAt > b.uploadedAt ? -1 : 0))
    .map(({ conversationId: _c, ...item }) => item);
  return mediaPage(items, pageRequest(q));
}
