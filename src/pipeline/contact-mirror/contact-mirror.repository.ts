// Every statement on `contact_mirror` (its state row: contact-mirror-state.repository.ts, its
// tombstones: contact-mirror-tombstones.repository.ts): the batch upsert (newer wins, tombstones
// respected), the upsert that notes each event's previous contact, deletes, reads and the purge of
// contacts a full sync did not see. Its one row type is ContactMirrorRow, derived from the entity.
import type { PreviousState } from '../../language/rules/format/rule-types';
import type { Queryable } from '../../persistence/sql/queryable';
import { returnedRows } from '../../persistence/sql/returned-rows';
import type { SnakeRow } from '../../persistence/sql/snake-row';
import type { ContactMirrorEntity } from './contact-mirror.entity';

/** A contact_mirror row as `SELECT *` returns it. */
export type ContactMirrorRow = SnakeRow<ContactMirrorEntity>;

/** The mirror's columns as selected by mirrorColumns(): the contact without its bookkeeping. */
export type MirrorRow = Omit<
  ContactMirrorRow,
  'raw' | 'synced_at' | 'sync_generation' | 'engine_before' | 'engine_written_at'
>;

/** Columns of contact_mirror in the order of the upsert's record type. */
const RECORD_COLUMNS: [name: keyof ContactMirrorRow, type: string][] = [
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
 * Exported for the full sync's page statement (contact-mirror-state.repository.ts), which embeds it.
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
 * The webhook of the engine's own write (its updatedAt is the one the write returned) compares with
 * the contact before that write (noteEngineWrite), not with the mirror, which learned it first.
 */
const UPSERT_CONTACTS_NOTING_PREVIOUS_SQL = `
WITH prior AS (SELECT m.id, m.raw, m.updated_at, m.engine_before, m.engine_written_at FROM contact_mirror m
                WHERE m.id IN (SELECT e."contactId" FROM jsonb_to_recordset($3::jsonb) AS e("contactId" text))),
upserted AS (${UPSERT_CONTACTS_SQL} RETURNING 1)
UPDATE inbox_events i SET previous_contact = CASE
         WHEN e.before IS NOT NULL THEN jsonb_build_object('contact', e.before)
         WHEN p.id IS NULL THEN '{"missing": "first sight of the contact"}'::jsonb
         WHEN p.engine_written_at = e."updatedAt" THEN jsonb_build_object('contact', p.engine_before)
         WHEN p.updated_at > e."updatedAt" THEN '{"missing": "the event is older than the contact the engine had"}'::jsonb
         ELSE jsonb_build_object('contact', p.raw) END
  FROM jsonb_to_recordset($3::jsonb) AS e("inboxEventId" uuid, "contactId" text, "updatedAt" timestamptz, before jsonb)
  LEFT JOIN prior p ON p.id = e."contactId"
 WHERE i.id = e."inboxEventId" AND i.previous_contact IS NULL
RETURNING i.id AS inbox_event_id, i.previous_contact AS previous`;

/** Select list of a MirrorRow from the mirror aliased `alias`. */
export const mirrorColumns = (alias = 'm') =>
  names
    .filter((n) => n !== 'raw')
    .map((n) => `${alias}."${n}"`)
    .join(', ');

/** What the console shows beside a contact id. */
export interface ContactName {
  id: string;
  name: string;
  phone: string;
  email: string | null;
}

/** The expression IDX_contact_mirror_search indexes (trigrams): name, phone and email in one text. */
const SEARCH_TEXT = `lower(name || ' ' || phone || ' ' || coalesce(email, ''))`;

/** `%`, `_` and `\\` matched as themselves in a LIKE pattern. */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export class ContactMirrorRepository {
  constructor(private readonly db: Queryable) {}

  /** The same repository over a transaction or a dedicated connection. */
  in(db: Queryable): ContactMirrorRepository {
    return new ContactMirrorRepository(db);
  }

  /** `records`: the JSON of mirrorRecords(); generation 0 keeps the generation a row has. */
  async upsert(records: string, generation: number): Promise<void> {
    await this.db.query(UPSERT_CONTACTS_SQL, [records, generation]);
  }

  /** The upsert, noting each event's previous contact on its inbox row (`previous`: previousInBatch's JSON). */
  async upsertNotingPrevious(
    records: string,
    previous: string,
  ): Promise<{ inbox_event_id: string; previous: PreviousState }[]> {
    return returnedRows(await this.db.query(UPSERT_CONTACTS_NOTING_PREVIOUS_SQL, [records, 0, previous]));
  }

  /**
   * Before the mirror takes the answer of the engine's write (`updatedAt`): keep the contact as it
   * was, for the webhook of that write. Only when the answer is newer than the mirror's copy.
   */
  async noteEngineWrite(contactId: string, updatedAt: string): Promise<void> {
    await this.db.query(
      `UPDATE contact_mirror SET engine_before = raw, engine_written_at = $2
        WHERE id = $1 AND updated_at < $2::timestamptz`,
      [contactId, updatedAt],
    );
  }

  async delete(contactId: string): Promise<void> {
    await this.db.query(`DELETE FROM contact_mirror WHERE id = $1`, [contactId]);
  }

  /** The contact exactly as the CRM sent it, if mirrored. */
  async findRaw(contactId: string): Promise<ContactMirrorRow['raw'] | undefined> {
    const [row] = await this.db.query(`SELECT raw FROM contact_mirror WHERE id = $1`, [contactId]);
    return row?.raw;
  }

  /** Name, phone and email of the mirrored contacts among `ids` (the others are not mirrored). */
  names(ids: readonly string[]): Promise<ContactName[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.query(`SELECT id, name, phone, email FROM contact_mirror WHERE id = ANY($1::text[])`, [
      [...new Set(ids)],
    ]);
  }

  /**
   * Contacts whose name, phone or email contains `text` (case-insensitive), by name: the console's
   * search. On IDX_contact_mirror_search (trigrams), so a substring is cheap on a large mirror.
   */
  search(text: string, limit: number): Promise<ContactName[]> {
    return this.db.query(
      `SELECT id, name, phone, email FROM contact_mirror
        WHERE ${SEARCH_TEXT} LIKE '%' || $1 || '%' ORDER BY name, id LIMIT $2`,
      [likeEscaped(text.toLowerCase()), limit],
    );
  }

  async count(): Promise<number> {
    const [{ count }] = await this.db.query(`SELECT count(*)::int AS count FROM contact_mirror`);
    return count;
  }

  /** Rows the full sync `generation` saw. */
  async countSeenBy(generation: number): Promise<number> {
    const [{ seen }] = await this.db.query(
      `SELECT count(*)::int AS seen FROM contact_mirror WHERE sync_generation = $1`,
      [generation],
    );
    return seen;
  }

  /** Rows no sync since `generation` saw and nobody touched since `startedAt`: gone from the CRM. */
  async purgeUnseen(generation: number, startedAt: Date | null): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM contact_mirror WHERE sync_generation < $1 AND synced_at < $2 RETURNING id`,
      [generation, startedAt],
    );
    return returnedRows(rows).length;
  }

  /** The mirrored contacts among `ids` (the others are not mirrored), in no particular order. */
  async rowsOf(ids: readonly string[]): Promise<MirrorRow[]> {
    if (ids.length === 0) return [];
    return this.db.query(`SELECT ${mirrorColumns('m')} FROM contact_mirror m WHERE m.id = ANY($1::text[])`, [
      [...new Set(ids)],
    ]);
  }

  /** Mirrored contacts with an id after `afterId`, by id. */
  async pageAfter(afterId: string, limit: number): Promise<MirrorRow[]> {
    return this.db.query(
      `SELECT ${mirrorColumns('m')} FROM contact_mirror m WHERE m.id > $1 ORDER BY m.id LIMIT $2`,
      [afterId, limit],
    );
  }
}
