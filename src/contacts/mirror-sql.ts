// SQL of the contact mirror: the batch upsert (newer wins, tombstones respected) and the
// row → MirroredContact mapping. Pure: strings and data, no connection.
import type { Contact, ContactStatus, Tag } from '@crm-rules/crm-contract';
import { toMirroredContact, type MirroredContact } from '../crm-contract/mirrored-contact';

/** Columns of contact_mirror in the order of the upsert's record type. */
const RECORD_COLUMNS: [name: string, type: string][] = [
  ['id', 'text'],
  ['name', 'text'],
  ['phone', 'text'],
  ['email', 'text'],
  ['avatar', 'text'],
  ['notes', 'text'],
  ['status', 'text'],
  ['is_blocked', 'boolean'],
  ['source_method', 'text'],
  ['assignee_id', 'text'],
  ['stage_id', 'text'],
  ['tag_ids', 'text[]'],
  ['tags', 'jsonb'],
  ['custom_fields', 'jsonb'],
  ['country', 'text'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['last_interaction_at', 'timestamptz'],
  ['raw', 'jsonb'],
];

const names = RECORD_COLUMNS.map(([n]) => n);
/** The member of a MirroredContact (or `raw`) a column is written from: is_blocked ← isBlocked. */
const recordKey = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
// A row changes only when the incoming contact is at least as recent as the stored one, so a
// list page read before a webhook update cannot undo it. synced_at always moves: "seen now".
const updates = names
  .filter((n) => n !== 'id')
  .map(
    (n) => `"${n}" = CASE WHEN c.updated_at <= EXCLUDED.updated_at THEN EXCLUDED."${n}" ELSE c."${n}" END`,
  );

/**
 * $1: jsonb array of records (mirrorRecord), $2: sync generation of the rows (0 for webhook
 * updates, which keep the generation a row has). Contacts with a tombstone are not written.
 */
export const UPSERT_CONTACTS_SQL = `
INSERT INTO contact_mirror AS c (${names.map((n) => `"${n}"`).join(', ')}, synced_at, sync_generation)
SELECT ${names.map((n) => `x."${recordKey(n)}"`).join(', ')}, now(), $2::int
  FROM jsonb_to_recordset($1::jsonb) AS x(${RECORD_COLUMNS.map(([n, t]) => `"${recordKey(n)}" ${t}`).join(', ')})
 WHERE NOT EXISTS (SELECT 1 FROM contact_mirror_tombstones t WHERE t.id = x.id)
ON CONFLICT (id) DO UPDATE SET ${updates.join(',\n  ')},
  synced_at = now(),
  sync_generation = GREATEST(c.sync_generation, EXCLUDED.sync_generation)`;

/**
 * UPSERT_CONTACTS_SQL that also keeps, on each event's inbox row, the contact as the mirror had it
 * before (change operators): the rows read in the statement's snapshot, taken before the upsert
 * (every part of one statement sees the same snapshot), so no extra round trip. Kept on the
 * event so a retried job compares with the same previous state (the mirror has moved on by then).
 * $3: jsonb array of { inboxEventId, contactId, updatedAt, before }: `before` is the contact of an
 * earlier event of the same batch (the statement writes only the newest), else null. Returns
 * (inbox_event_id, previous) of the rows it noted. The previous state is missing on first sight,
 * and when the event is older than the mirror's copy (delivered out of order: no change to tell).
 */
export const UPSERT_CONTACTS_NOTING_PREVIOUS_SQL = `
WITH prior AS (SELECT m.id, m.raw, m.updated_at FROM contact_mirror m
                WHERE m.id IN (SELECT e."contactId" FROM jsonb_to_recordset($3::jsonb) AS e("contactId" text))),
upserted AS (${UPSERT_CONTACTS_SQL} RETURNING 1)
UPDATE inbox_events i SET previous_contact = CASE
         WHEN e.before IS NOT NULL THEN jsonb_build_object('contact', e.before)
         WHEN p.id IS NULL THEN '{"missing": "first sight of the contact"}'::jsonb
         WHEN p.updated_at > e."updatedAt" THEN '{"missing": "the event is older than the contact the engine had"}'::jsonb
         ELSE jsonb_build_object('contact', p.raw) END
  FROM jsonb_to_recordset($3::jsonb) AS e("inboxEventId" uuid, "contactId" text, "updatedAt" timestamptz, before jsonb)
  LEFT JOIN prior p ON p.id = e."contactId"
 WHERE i.id = e."inboxEventId" AND i.previous_contact IS NULL
RETURNING i.id AS inbox_event_id, i.previous_contact AS previous`;

/** The jsonb record of one contact for UPSERT_CONTACTS_SQL (JSON.stringify writes the dates as ISO). */
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

/** The mirror's columns as selected by MIRROR_COLUMNS, as pg returns them. */
export interface MirrorRow {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  avatar: string | null;
  notes: string | null;
  status: string;
  is_blocked: boolean;
  source_method: string;
  assignee_id: string | null;
  stage_id: string | null;
  tag_ids: string[];
  tags: Tag[];
  custom_fields: Record<string, unknown>;
  country: string | null;
  created_at: Date;
  updated_at: Date;
  last_interaction_at: Date | null;
}

/** Select list of a MirrorRow from the mirror aliased `alias`. */
export const mirrorColumns = (alias = 'm') =>
  names
    .filter((n) => n !== 'raw')
    .map((n) => `${alias}."${n}"`)
    .join(', ');

export function fromMirrorRow(r: MirrorRow): MirroredContact {
  return {
    id: r.id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    avatar: r.avatar,
    notes: r.notes,
    status: r.status as ContactStatus,
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

/**
 * A full sync's page: the contacts' upsert and the cursor in one statement (a data-modifying CTE
 * runs to completion whether or not its rows are read). $1 records, $2 generation, $3 state id,
 * $4 next page, $5 the CRM's total, $6 the page's newest creation date.
 */
export const FULL_SYNC_PAGE_SQL = `
WITH upserted AS (${UPSERT_CONTACTS_SQL} RETURNING 1)
UPDATE contact_mirror_state SET full_sync_page = $4, full_sync_total = $5, list_calls = list_calls + 1,
       full_sync_newest_created_at = GREATEST(full_sync_newest_created_at, $6::timestamptz), updated_at = now()
 WHERE id = $3`;
