// Contacts: create, read, list, update, delete (docs/CRM-API.md §4.3 and the assumed
// operations A2–A6). Every change emits contact.updated with the full contact; a request that
// changes nothing returns the contact unchanged and emits nothing.
import { randomUUID } from 'node:crypto';
import { SOURCE_METHODS, type Contact, type PageWithTotals } from '@crm-rules/crm-contract';
import { arrayOf, CONTACT_STATUSES, enumCheck, uuidCheck, type Check } from '@crm-rules/crm-contract';
import { contactMatches, contactSort, hasContactFilters, type ContactListQuery } from './contact-queries';
import { applyCustomFieldValues, checkCustomFieldValues } from './custom-field-values';
import { checkBody, emailCheck, nullable, phoneCheck, str, urlCheck } from './input-checks';
import { mustFind } from './lookups';
import { totalledPage } from './paging';
import { pageRequest } from './query-checks';
import { assertValid, conflict } from './sandbox-error';
import type { ContactRecord, OpContext, OrgState } from './sandbox-state';
import { contactView } from './views';

export interface ContactInput {
  name?: string;
  phone?: string;
  email?: string | null;
  avatar?: string | null;
  notes?: string | null;
  assigneeId?: string | null;
  stageId?: string | null;
  tagIds?: string[];
  sourceMethod?: string;
  status?: 'active' | 'archived';
  customFields?: Record<string, unknown>;
}

const anyObject: Check = () => []; // customFields are checked against the org's fields afterwards

const COMMON_SHAPE: Record<string, Check> = {
  name: str({ min: 1, max: 255 }),
  phone: phoneCheck,
  email: nullable(emailCheck),
  avatar: nullable(urlCheck()),
  notes: nullable(str({ max: 10_000 })),
  assigneeId: nullable(uuidCheck),
  stageId: nullable(uuidCheck),
  tagIds: arrayOf(uuidCheck),
  customFields: anyObject,
};
const CREATE_SHAPE = { ...COMMON_SHAPE, sourceMethod: enumCheck(SOURCE_METHODS) };
const UPDATE_SHAPE = { ...COMMON_SHAPE, status: enumCheck(CONTACT_STATUSES) };

function checkInput(
  org: OrgState,
  body: unknown,
  shape: Record<string, Check>,
  required: string[],
): ContactInput {
  const input = checkBody<ContactInput>(body, shape, required);
  if (input.customFields !== undefined) assertValid(checkCustomFieldValues(org, input.customFields));
  if (input.assigneeId) mustFind(org, 'members', input.assigneeId, 'assigneeId');
  if (input.stageId) mustFind(org, 'stages', input.stageId, 'stageId');
  for (const tagId of input.tagIds ?? []) mustFind(org, 'tags', tagId, 'tagIds');
  return input;
}

function assertPhoneFree(org: OrgState, phone: string, exceptId?: string): void {
  for (const c of org.contacts.values()) {
    if (c.phone === phone && c.id !== exceptId)
      throw conflict(
        'resource_conflict',
        `A contact with phone ${phone} already exists in this organization`,
      );
  }
}

export function createContact(ctx: OpContext, body: unknown): Contact {
  const input = checkInput(ctx.org, body, CREATE_SHAPE, ['phone']);
  const phone = input.phone as string;
  assertPhoneFree(ctx.org, phone);
  const now = ctx.now().toISOString();
  // A phone the fixture reserved an id for gets it, once (the demo contact keeps its id).
  const reserved = ctx.org.reservedContactIds.get(phone);
  ctx.org.reservedContactIds.delete(phone);
  const record: ContactRecord = {
    id: reserved && !ctx.org.contacts.has(reserved) ? reserved : randomUUID(),
    name: input.name ?? phone,
    phone,
    email: input.email ?? null,
    avatar: input.avatar ?? null,
    notes: input.notes ?? null,
    status: 'active',
    isBlocked: false,
    sourceMethod: input.sourceMethod ?? 'MANUAL',
    assigneeId: input.assigneeId ?? null,
    stageId: input.stageId ?? null,
    tagIds: [...new Set(input.tagIds ?? [])],
    customFields: {},
    createdAt: now,
    updatedAt: now,
    lastInteractionAt: null,
  };
  if (input.customFields) applyCustomFieldValues(record.customFields, input.customFields);
  ctx.org.contacts.set(record.id, record);
  ctx.org.contactOrders.put(record);
  const view = contactView(ctx.org, record);
  ctx.emit('contact.created', view);
  return view;
}

export function getContact(ctx: OpContext, id: string): Contact {
  return contactView(ctx.org, mustFind(ctx.org, 'contacts', id));
}

/** A page cut from the kept order: a slice, or one filtering pass that also counts the total. */
export function listContacts(ctx: OpContext, q: ContactListQuery): PageWithTotals<Contact> {
  const { key, direction } = contactSort(q);
  const order = ctx.org.contactOrders.get(key, direction);
  const req = pageRequest(q);
  const start = (req.page - 1) * req.limit;
  const end = start + req.limit;
  let rows: ContactRecord[] = [];
  let total = 0;
  if (!hasContactFilters(q)) {
    rows = order.slice(start, end);
    total = order.size;
  } else {
    for (const c of order.records()) {
      if (!contactMatches(c, q)) continue;
      if (total >= start && total < end) rows.push(c);
      total++;
    }
  }
  return totalledPage(
    rows.map((c) => contactView(ctx.org, c)),
    total,
    req,
  );
}

/** Applies `mutate` to the contact; stamps updatedAt and emits contact.updated if it changed anything. */
export function changeContact(ctx: OpContext, id: string, mutate: (c: ContactRecord) => boolean): Contact {
  const record = mustFind(ctx.org, 'contacts', id);
  const changed = mutate(record);
  if (changed) {
    record.updatedAt = ctx.now().toISOString();
    ctx.org.contactOrders.put(record);
  }
  const view = contactView(ctx.org, record);
  if (changed) ctx.emit('contact.updated', view);
  return view;
}

function setField<K extends keyof ContactRecord>(
  c: ContactRecord,
  key: K,
  value: ContactRecord[K] | undefined,
): boolean {
  if (value === undefined || c[key] === value) return false;
  c[key] = value;
  return true;
}

export function updateContact(ctx: OpContext, id: string, body: unknown): Contact {
  mustFind(ctx.org, 'contacts', id);
  const input = checkInput(ctx.org, body, UPDATE_SHAPE, []);
  if (input.phone !== undefined) assertPhoneFree(ctx.org, input.phone, id);
  return changeContact(ctx, id, (c) => {
    let changed = false;
    for (const key of [
      'name',
      'phone',
      'email',
      'avatar',
      'notes',
      'assigneeId',
      'stageId',
      'status',
    ] as const) {
      changed = setField(c, key, input[key] as never) || changed;
    }
    if (input.tagIds !== undefined) {
      const next = [...new Set(input.tagIds)];
      if (next.join() !== c.tagIds.join()) {
        c.tagIds = next;
        changed = true;
      }
    }
    if (input.customFields) changed = applyCustomFieldValues(c.customFields, input.customFields) || changed;
    return changed;
  });
}

export function deleteContact(ctx: OpContext, id: string): { success: true; id: string } {
  const record = mustFind(ctx.org, 'contacts', id);
  const view = contactView(ctx.org, record);
  ctx.org.contacts.delete(id);
  ctx.org.contactOrders.remove(id);
  // Its one-contact conversations, their messages and media go with it.
  for (const conv of [...ctx.org.conversations.values()].filter((v) => v.contactId === id)) {
    ctx.org.conversations.delete(conv.id);
    for (const m of [...ctx.org.messages.values()])
      if (m.conversationId === conv.id) ctx.org.messages.delete(m.id);
    for (const m of [...ctx.org.media.values()]) if (m.conversationId === conv.id) ctx.org.media.delete(m.id);
  }
  ctx.emit('contact.deleted', view);
  return { success: true, id };
}
