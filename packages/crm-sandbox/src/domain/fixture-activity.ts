// Fixture → contacts, conversations (with messages and media), segments, broadcasts and
// message templates of one organization. The directory (members, stages, tags, fields,
// channels) is already built, so references resolve by name.
import { SOURCE_METHODS } from '@crm-rules/crm-contract';
import { validateSegmentFilters, validateSegmentName } from '@crm-rules/crm-contract';
import { checkCustomFieldValues } from './custom-field-values';
import { Problems, resolveRef, stableUuid } from './fixture-loader';
import type { FixtureContact, FixtureConversation, FixtureOrg } from './fixture-types';
import { PHONE_RE } from './input-checks';
import type { ContactRecord, OrgState } from './sandbox-state';

function ref<T extends { id: string }>(
  p: Problems,
  path: string,
  items: Map<string, T>,
  value: string,
  keys: (keyof T)[],
  what: string,
): T | undefined {
  const found = resolveRef(items.values(), value, keys);
  if (!found) p.add(path, `no ${what} '${value}'`);
  return found;
}

/** Select fields may name options by label in a fixture; the API stores option ids. */
function customFieldIds(org: OrgState, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const field = [...org.customFields.values()].find((f) => f.fieldKey === key);
    const toId = (v: unknown) => field?.options.find((o) => o.id === v || o.label === v)?.id ?? v;
    out[key] =
      field?.type === 'SINGLE_SELECT'
        ? toId(value)
        : field?.type === 'MULTI_SELECT' && Array.isArray(value)
          ? value.map(toId)
          : value;
  }
  return out;
}

function buildContact(
  org: OrgState,
  c: FixtureContact,
  at: string,
  p: Problems,
  now: Date,
  index: number,
): void {
  if (!p.required(`${at}.name`, c.name, 'string') || !p.required(`${at}.phone`, c.phone, 'string')) return;
  if (!PHONE_RE.test(c.phone)) p.add(`${at}.phone`, 'must be 7 to 15 digits with country code, no +');
  if (c.sourceMethod && !(SOURCE_METHODS as readonly string[]).includes(c.sourceMethod))
    p.add(`${at}.sourceMethod`, `unknown source method '${c.sourceMethod}'`);
  const id = p.id(at, c.id, org.id, 'contact', c.phone);
  const createdAt = p.date(
    `${at}.createdAt`,
    c.createdAt,
    now,
    new Date(now.getTime() - (60 - index) * 86400e3),
  );
  const customFields = customFieldIds(org, c.customFields ?? {});
  for (const d of checkCustomFieldValues(org, customFields, `${at}.customFields`)) p.add(d.param, d.message);
  const record: ContactRecord = {
    id,
    name: c.name,
    phone: c.phone,
    email: c.email ?? null,
    avatar: c.avatar ?? null,
    notes: c.notes ?? null,
    status: c.status ?? 'active',
    isBlocked: c.isBlocked ?? false,
    sourceMethod: c.sourceMethod ?? 'MANUAL',
    assigneeId: c.assignee
      ? (ref(p, `${at}.assignee`, org.members, c.assignee, ['email', 'name'], 'member')?.id ?? null)
      : null,
    stageId: c.stage ? (ref(p, `${at}.stage`, org.stages, c.stage, ['name'], 'stage')?.id ?? null) : null,
    tagIds: (c.tags ?? []).flatMap(
      (t, j) => ref(p, `${at}.tags[${j}]`, org.tags, t, ['name'], 'tag')?.id ?? [],
    ),
    customFields,
    createdAt,
    updatedAt: p.date(`${at}.updatedAt`, c.updatedAt, now, new Date(createdAt)),
    lastInteractionAt: c.lastInteractionAt
      ? p.date(`${at}.lastInteractionAt`, c.lastInteractionAt, now, now)
      : null,
  };
  if (org.contacts.has(id)) p.add(`${at}.id`, 'is used by two contacts');
  org.contacts.set(id, record);
  org.contactOrders.put(record);
}

function buildConversation(
  org: OrgState,
  conv: FixtureConversation,
  at: string,
  p: Problems,
  now: Date,
): void {
  const contact = ref(p, `${at}.contact`, org.contacts, conv.contact, ['phone', 'name'], 'contact');
  const channel = ref(p, `${at}.channel`, org.channels, conv.channel, ['name'], 'channel');
  if (!contact || !channel) return;
  const id = p.id(at, conv.id, org.id, 'conversation', contact.id, channel.id);
  const messages = conv.messages ?? [];
  let unread = 0;
  messages.forEach((m, i) => {
    const mAt = `${at}.messages[${i}]`;
    const mid = stableUuid(id, 'message', String(i));
    const createdAt = p.date(`${mAt}.at`, m.at, now, new Date(now.getTime() - (messages.length - i) * 60e3));
    unread = m.isOutgoing ? 0 : unread + 1;
    const type = m.attachment?.type ?? 'text';
    org.messages.set(mid, {
      id: mid,
      conversationId: id,
      contactId: contact.id,
      messagePlatformId: m.messagePlatformId ?? `pm_${stableUuid(mid).replace(/-/g, '').slice(0, 24)}`,
      isOutgoing: Boolean(m.isOutgoing),
      text: m.text ?? null,
      type,
      createdAt,
      reaction: null,
      attachment: m.attachment
        ? { url: m.attachment.url, type: m.attachment.type, name: m.attachment.name }
        : null,
      replyToMessageId: null,
    });
    if (m.attachment) {
      const media = {
        id: stableUuid(mid, 'media'),
        messageId: mid,
        conversationId: id,
        type,
        filename: m.attachment.name,
        url: m.attachment.url,
        uploadedAt: createdAt,
      };
      org.media.set(media.id, { ...media, fileSize: m.attachment.fileSize ?? 1024 });
    }
  });
  const last = [...org.messages.values()].filter((m) => m.conversationId === id).pop();
  org.conversations.set(id, {
    id,
    channelId: channel.id,
    contactId: contact.id,
    status: conv.status ?? 'active',
    lastMessage: last ? (last.text ?? `[${last.type}]`) : null,
    lastMessageAt: last?.createdAt ?? null,
    lastMessageIsOutgoing: last?.isOutgoing ?? false,
    unreadCount: conv.unreadCount ?? unread,
    createdAt: last?.createdAt ?? now.toISOString(),
  });
  if (last && (!contact.lastInteractionAt || contact.lastInteractionAt < last.createdAt)) {
    contact.lastInteractionAt = last.createdAt;
    org.contactOrders.put(contact);
  }
}

function buildCatalogue(org: OrgState, f: FixtureOrg, path: string, p: Problems, now: Date): void {
  (f.segments ?? []).forEach((s, i) => {
    const at = `${path}.segments[${i}]`;
    for (const d of [
      ...validateSegmentName(s.name, `${at}.name`),
      ...validateSegmentFilters(s.filters, { paramPrefix: `${at}.filters` }),
    ])
      p.add(d.param, d.message);
    const id = p.id(at, s.id, org.id, 'segment', String(s.name));
    org.segments.set(id, {
      id,
      name: s.name,
      filters: s.filters ?? {},
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });
  });
  (f.broadcasts ?? []).forEach((b, i) => {
    const at = `${path}.broadcasts[${i}]`;
    if (!p.required(`${at}.name`, b.name, 'string')) return;
    const id = p.id(at, b.id, org.id, 'broadcast', b.name);
    const sentAt = b.sentAt ? p.date(`${at}.sentAt`, b.sentAt, now, now) : null;
    const n = (v: number | undefined) => v ?? 0;
    org.broadcasts.set(id, {
      id,
      name: b.name,
      channelName: b.channelName,
      segmentName: b.segmentName,
      status: b.status ?? 'DRAFT',
      totalCount: n(b.totalCount),
      sentCount: n(b.sentCount),
      deliveredCount: n(b.deliveredCount),
      readCount: n(b.readCount),
      repliedCount: n(b.repliedCount),
      failedCount: n(b.failedCount),
      skippedCount: n(b.skippedCount),
      sentAt,
      errorCode: b.errorCode ?? null,
      errorMessage: b.errorMessage ?? null,
      createdAt: p.date(`${at}.createdAt`, b.createdAt, now, sentAt ? new Date(sentAt) : now),
    });
  });
  (f.templates ?? []).forEach((t, i) => {
    const at = `${path}.templates[${i}]`;
    if (!p.required(`${at}.name`, t.name, 'string') || !p.required(`${at}.body`, t.body, 'string')) return;
    const id = p.id(at, t.id, org.id, 'template', t.name);
    org.templates.set(id, {
      id,
      name: t.name,
      language: t.language ?? 'en',
      category: t.category ?? 'UTILITY',
      status: t.status ?? 'APPROVED',
      body: t.body,
      createdAt: now.toISOString(),
    });
  });
}

export function buildActivity(org: OrgState, f: FixtureOrg, path: string, p: Problems, now: Date): void {
  (f.contacts ?? []).forEach((c, i) => buildContact(org, c, `${path}.contacts[${i}]`, p, now, i));
  (f.conversations ?? []).forEach((c, i) => buildConversation(org, c, `${path}.conversations[${i}]`, p, now));
  buildCatalogue(org, f, path, p, now);
}
