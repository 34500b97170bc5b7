// Records to API shapes (crm-types.ts). Views are built on every read so a contact
// always shows its tags' current names and colours.
import type { Contact, Conversation, Member, Message, Broadcast, Tag } from '@crm-rules/crm-contract';
import type {
  BroadcastRecord,
  ContactRecord,
  ConversationRecord,
  MemberRecord,
  MessageRecord,
  OrgState,
  TemplateRecord,
  WebhookRecord,
} from './sandbox-state';

export function contactView(org: OrgState, c: ContactRecord): Contact {
  const tags: Tag[] = [];
  for (const id of c.tagIds) {
    const tag = org.tags.get(id);
    if (tag) tags.push({ id: tag.id, name: tag.name, color: tag.color });
  }
  return {
    id: c.id,
    name: c.name,
    phone: c.phone,
    email: c.email,
    avatar: c.avatar,
    notes: c.notes,
    status: c.status,
    isBlocked: c.isBlocked,
    sourceMethod: c.sourceMethod,
    assigneeId: c.assigneeId,
    stageId: c.stageId,
    tags,
    customFields: { ...c.customFields },
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    lastInteractionAt: c.lastInteractionAt,
  };
}

export function conversationView(org: OrgState, c: ConversationRecord): Conversation {
  const contact = org.contacts.get(c.contactId);
  const channel = org.channels.get(c.channelId);
  return {
    id: c.id,
    platformType: channel?.platformType ?? 'UNKNOWN',
    channelId: c.channelId,
    contacts: contact ? [{ id: contact.id, name: contact.name, phone: contact.phone }] : [],
    lastMessage: c.lastMessage,
    lastMessageAt: c.lastMessageAt,
    lastMessageIsOutgoing: c.lastMessageIsOutgoing,
    unreadCount: c.unreadCount,
  };
}

/** Message of crm-types.ts plus `reaction`, `attachment` and `replyToMessageId` (extra members). */
export function messageView(
  m: MessageRecord,
): Message & Pick<MessageRecord, 'reaction' | 'attachment' | 'replyToMessageId'> {
  return { ...m, attachment: m.attachment ? { ...m.attachment } : null };
}

export function memberView(m: MemberRecord): Member {
  const { createdAt: _createdAt, ...member } = m;
  return member;
}

export function broadcastView(b: BroadcastRecord): Broadcast {
  const { createdAt: _createdAt, ...broadcast } = b;
  return broadcast;
}

export function templateView(t: TemplateRecord): TemplateRecord {
  return { ...t };
}

/** The secret is never part of a view: POST /v1/webhooks adds it to its one response. */
export function webhookView(w: WebhookRecord) {
  return {
    id: w.id,
    url: w.url,
    events: [...w.events],
    enabled: w.enabled,
    createdAt: w.createdAt,
    disabledAt: w.disabledAt,
  };
}
