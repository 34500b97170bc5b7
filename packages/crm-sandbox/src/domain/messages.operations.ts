// Messages: list, send, react (docs/CRM-API.md §4.4 and A8, A9, A17), inbound messages from the
// control surface, and message templates. Domain rules: a message or reaction needs an
// assignee; a blocked contact can neither send nor receive; the channel must be connected.
import { randomBytes, randomUUID } from 'node:crypto';
import type { CrmErrorDetail, Message, PageWithTotals } from '@crm-rules/crm-contract';
import { detail, enumCheck, objectOf, uuidCheck } from '@crm-rules/crm-contract';
import { assertCanMessage, createConversation, findOpenConversation } from './conversations.operations';
import { checkBody, str, urlCheck } from './input-checks';
import { mustFind } from './lookups';
import { pageWithTotals } from './paging';
import { pageRequest, pagingSpec, type ParsedQuery } from './query-checks';
import { assertValid, notFound, unprocessable } from './sandbox-error';
import type { ContactRecord, ConversationRecord, MessageRecord, OpContext } from './sandbox-state';
import { conversationView, messageView } from './views';

export const MESSAGE_LIST_QUERY = { ...pagingSpec(100), conversationId: { kind: 'uuid' } } as const;
export const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
export const MESSAGE_TEXT_MAX = 4096;

type Attachment = { url: string; type: (typeof MEDIA_TYPES)[number]; name: string };
const ATTACHMENT = objectOf(
  { url: urlCheck(), type: enumCheck(MEDIA_TYPES), name: str({ min: 1, max: 255 }) },
  ['url', 'type', 'name'],
);
const TEXT = str({ min: 1, max: MESSAGE_TEXT_MAX });

export const newPlatformId = (): string => `pm_${randomBytes(12).toString('hex')}`;

export function listMessages(
  ctx: OpContext,
  q: ParsedQuery<typeof MESSAGE_LIST_QUERY>,
): PageWithTotals<Message> {
  const conversationId = q.conversationId as string;
  mustFind(ctx.org, 'conversations', conversationId, 'conversationId');
  const rows = [...ctx.org.messages.values()]
    .filter((m) => m.conversationId === conversationId)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  const page = pageWithTotals(rows, pageRequest(q));
  return { ...page, data: page.data.map(messageView) };
}

function contactOfConversation(
  ctx: OpContext,
  conversationId: string,
  contactId: string,
): [ConversationRecord, ContactRecord] {
  const conv = mustFind(ctx.org, 'conversations', conversationId, 'conversationId');
  const contact = mustFind(ctx.org, 'contacts', contactId, 'contactId');
  if (conv.contactId !== contact.id)
    assertValid([
      detail(
        'contactId',
        'invalid_string' as const,
        `Contact ${contactId} is not part of conversation ${conversationId}`,
      ),
    ]);
  return [conv, contact];
}

function appendMessage(
  ctx: OpContext,
  conv: ConversationRecord,
  contact: ContactRecord,
  m: Pick<MessageRecord, 'isOutgoing' | 'text' | 'type' | 'attachment' | 'replyToMessageId'>,
): Message {
  const now = ctx.now().toISOString();
  const record: MessageRecord = {
    id: randomUUID(),
    conversationId: conv.id,
    contactId: contact.id,
    messagePlatformId: newPlatformId(),
    createdAt: now,
    reaction: null,
    ...m,
  };
  ctx.org.messages.set(record.id, record);
  if (m.attachment) {
    const id = randomUUID();
    ctx.org.media.set(id, {
      id,
      messageId: record.id,
      conversationId: conv.id,
      type: m.attachment.type,
      filename: m.attachment.name,
      fileSize: 0,
      url: m.attachment.url,
      uploadedAt: now,
    });
  }
  conv.lastMessage = m.text ?? `[${m.type}]`;
  conv.lastMessageAt = now;
  conv.lastMessageIsOutgoing = m.isOutgoing;
  conv.unreadCount = m.isOutgoing ? 0 : conv.unreadCount + 1; // answering reads the conversation
  contact.lastInteractionAt = now; // derived; not a contact.updated
  ctx.org.contactOrders.put(contact);
  const view = messageView(record);
  ctx.emit('message.created', view);
  return view;
}

interface SendInput {
  conversationId: string;
  contactId: string;
  text?: string;
  attachment?: Attachment;
  replyToMessageId?: string;
}

export function sendMessage(ctx: OpContext, body: unknown): Message {
  const shape = {
    conversationId: uuidCheck,
    contactId: uuidCheck,
    text: TEXT,
    attachment: ATTACHMENT,
    replyToMessageId: uuidCheck,
  };
  const input = checkBody<SendInput>(body, shape, ['conversationId', 'contactId']);
  if (input.text === undefined && input.attachment === undefined)
    assertValid([detail('text', 'invalid_type', 'Either text or attachment is required')]);
  const [conv, contact] = contactOfConversation(ctx, input.conversationId, input.contactId);
  if (input.replyToMessageId) {
    const replied = ctx.org.messages.get(input.replyToMessageId);
    if (!replied || replied.conversationId !== conv.id)
      throw notFound('message', input.replyToMessageId, 'replyToMessageId');
  }
  assertCanMessage(ctx.org, contact, conv.channelId, true);
  return appendMessage(ctx, conv, contact, {
    isOutgoing: true,
    text: input.text ?? null,
    type: input.attachment?.type ?? 'text',
    attachment: input.attachment ?? null,
    replyToMessageId: input.replyToMessageId ?? null,
  });
}

export function reactToMessage(ctx: OpContext, body: unknown): { success: boolean } {
  const shape = {
    conversationId: uuidCheck,
    contactId: uuidCheck,
    messagePlatformId: str({ min: 1, max: 255 }),
    emoji: str({ max: 32 }),
  };
  const input = checkBody<{
    conversationId: string;
    contactId: string;
    messagePlatformId: string;
    emoji: string;
  }>(body, shape, Object.keys(shape));
  const [conv, contact] = contactOfConversation(ctx, input.conversationId, input.contactId);
  const message = [...ctx.org.messages.values()].find(
    (m) => m.conversationId === conv.id && m.messagePlatformId === input.messagePlatformId,
  );
  if (!message) throw notFound('message', input.messagePlatformId, 'messagePlatformId');
  assertCanMessage(ctx.org, contact, conv.channelId, true);
  const next = input.emoji === '' ? null : input.emoji; // an empty emoji removes the reaction
  if (message.reaction !== next) {
    message.reaction = next;
    ctx.emit('message.updated', messageView(message));
  }
  return { success: true };
}

/** Control surface: a message from the contact, on the given or first connected channel. */
export function receiveInboundMessage(ctx: OpContext, body: unknown) {
  const shape = { contactId: uuidCheck, text: TEXT, channelId: uuidCheck, attachment: ATTACHMENT };
  const input = checkBody<{ contactId: string; text?: string; channelId?: string; attachment?: Attachment }>(
    body,
    shape,
    ['contactId'],
  );
  if (input.text === undefined && input.attachment === undefined)
    assertValid([detail('text', 'invalid_type', 'Either text or attachment is required')]);
  const contact = mustFind(ctx.org, 'contacts', input.contactId, 'contactId');
  const channels = [...ctx.org.channels.values()];
  const channel = input.channelId
    ? mustFind(ctx.org, 'channels', input.channelId, 'channelId')
    : channels.find((c) => c.status === 'connected');
  if (!channel) throw unprocessable('channel_not_connected', 'The organization has no connected channel');
  assertCanMessage(ctx.org, contact, channel.id, false);
  const conv =
    findOpenConversation(ctx.org, contact.id, channel.id) ?? createConversation(ctx, contact.id, channel.id);
  const message = appendMessage(ctx, conv, contact, {
    isOutgoing: false,
    text: input.text ?? null,
    type: input.attachment?.type ?? 'text',
    attachment: input.attachment ?? null,
    replyToMessageId: null,
  });
  return { conversation: conversationView(ctx.org, conv), message };
}

function renderTemplate(body: string, params: string[]): { text: string; missing: CrmErrorDetail[] } {
  const needed = Math.max(0, ...[...body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])));
  const missing =
    params.length < needed
      ? [
          detail(
            'bodyParameters',
            'too_small',
            `Template needs ${needed} body parameter(s), got ${params.length}`,
          ),
        ]
      : [];
  return { text: body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => params[Number(n) - 1] ?? ''), missing };
}

export function sendTemplate(ctx: OpContext, body: unknown): Message {
  const shape = {
    conversationId: uuidCheck,
    contactId: uuidCheck,
    templateId: uuidCheck,
    bodyParameters: (v: unknown, p: string) =>
      Array.isArray(v)
        ? v.flatMap((x, i) => str({ max: 1024 })(x, `${p}[${i}]`, {}))
        : [detail(p, 'invalid_type', 'Expected array')],
  };
  const input = checkBody<{
    conversationId: string;
    contactId: string;
    templateId: string;
    bodyParameters?: string[];
  }>(body, shape, ['conversationId', 'contactId', 'templateId']);
  const [conv, contact] = contactOfConversation(ctx, input.conversationId, input.contactId);
  const template = mustFind(ctx.org, 'templates', input.templateId, 'templateId');
  if (template.status !== 'APPROVED')
    throw unprocessable(
      'template_not_approved',
      `Template ${template.name} is ${template.status}, not APPROVED`,
    );
  const { text, missing } = renderTemplate(template.body, input.bodyParameters ?? []);
  assertValid(missing);
  assertCanMessage(ctx.org, contact, conv.channelId, true);
  return appendMessage(ctx, conv, contact, {
    isOutgoing: true,
    text,
    type: 'template',
    attachment: null,
    replyToMessageId: null,
  });
}
