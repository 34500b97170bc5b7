// The contact mirror's data in and out, without a connection: a contact as the upsert's jsonb
// record (contact-mirror.repository.ts writes them), and a selected row back as a MirroredContact.
// Pure.
import type { Contact } from '@crm-rules/crm-contract';
import { toMirroredContact, type MirroredContact } from '../../language/crm-terms/mirrored-contact';
import type { MirrorRow } from './contact-mirror.repository';

/** The jsonb record of one contact for the mirror's upsert (JSON.stringify writes the dates as ISO). */
export function mirrorRecord(raw: Contact): MirroredContact & { raw: Contact } {
  return { ...toMirroredContact(raw), raw };
}

/** Records of a page, the last copy of each id kept (one statement may not touch a row twice). */
export function mirrorRecords(contacts: readonly Contact[]): ReturnType<typeof mirrorRecord>[] {
  const byId = new Map<string, ReturnType<typeof mirrorRecord>>();
  for (const c of contacts) byId.set(String(c.id), mirrorRecord(c));
  return [...byId.values()];
}

/**
 * Records of the contacts several events carry, for one statement: per id the newest by updatedAt
 * (on a tie the later one, as two statements in a row would leave it), sorted by id so concurrent
 * batches lock their rows in one order (no deadlock between two workers' batches).
 */
export function newestRecords(contacts: readonly Contact[]): ReturnType<typeof mirrorRecord>[] {
  const byId = new Map<string, Contact>();
  for (const c of contacts) {
    const kept = byId.get(String(c.id));
    if (!kept || Date.parse(kept.updatedAt) <= Date.parse(c.updatedAt)) byId.set(String(c.id), c);
  }
  return [...byId.keys()].sort().map((id) => mirrorRecord(byId.get(id)!));
}

export function fromMirrorRow(r: MirrorRow): MirroredContact {
  return {
    id: r.id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    avatar: r.avatar,
    notes: r.notes,
    status: r.status,
    isBlocked: r.is_blocked,
    sourceMethod: r.source_method,
    assigneeId: r.assignee_id,
    stageId: r.stage_id,
    tagIds: r.tag_ids ?? [],
    tags: r.tags ?? [],
    customFields: r.custom_fields ?? {},
    country: r.country,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    lastInteractionAt: r.last_interaction_at ? new Date(r.last_interaction_at) : null,
  };
}
