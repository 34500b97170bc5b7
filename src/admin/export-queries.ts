// Reads behind the toolchain exports, paged by key so an export of any size streams in constant
// memory. The inbox_events/runs read belongs to the ledger repository (src/ledger/) once it
// lands; it is kept here, under its own name, until then.
import type { DataSource } from 'typeorm';
import { fromMirrorRow, mirrorColumns, type MirrorRow } from '../segments/mirror-sql';
import type { MirroredContact } from '../segments/mirrored-contact';
import type { RecordedEvent } from '../toolchain/recorded-events';

export const EXPORT_PAGE = 1000;

/** Mirrored contacts with an id after `afterId`, by id. */
export async function readMirrorPage(
  db: DataSource,
  afterId: string,
  limit = EXPORT_PAGE,
): Promise<MirroredContact[]> {
  const rows: MirrorRow[] = await db.query(
    `SELECT ${mirrorColumns('m')} FROM contact_mirror m WHERE m.id > $1 ORDER BY m.id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map(fromMirrorRow);
}

export interface InboxExportCursor {
  receivedAt: Date;
  id: string;
}

/**
 * Inbox events received in [since, until), after the cursor, oldest first, each with the contact
 * state one of its runs recorded (message events are evaluated against a contact read at the time).
 */
export async function readInboxEventsForExport(
  db: DataSource,
  range: { since: Date; until: Date },
  after: InboxExportCursor | undefined,
  limit = EXPORT_PAGE,
): Promise<{ events: RecordedEvent[]; last?: InboxExportCursor }> {
  const rows: {
    id: string;
    type: string;
    payload: { id?: string; createdAt?: string; data?: Record<string, unknown> };
    contact_id: string | null;
    received_at: Date;
    contact: Record<string, unknown> | null;
  }[] = await db.query(
    `SELECT e.id, e.type, e.payload, e.contact_id, e.received_at,
            (SELECT r.contact_snapshot FROM runs r
              WHERE r.inbox_event_id = e.id AND r.contact_snapshot IS NOT NULL LIMIT 1) AS contact
       FROM inbox_events e
      WHERE e.received_at >= $1 AND e.received_at < $2
        AND ($3::timestamptz IS NULL OR (e.received_at, e.id) > ($3::timestamptz, $4::uuid))
      ORDER BY e.received_at, e.id
      LIMIT $5`,
    [range.since, range.until, after?.receivedAt ?? null, after?.id ?? null, limit],
  );
  const events = rows.map((r) => ({
    id: r.payload.id ?? r.id,
    type: r.type,
    createdAt: r.payload.createdAt ?? new Date(r.received_at).toISOString(),
    data: r.payload.data ?? {},
    contactId: r.contact_id,
    ...(r.contact && !r.type.startsWith('contact.') ? { contact: r.contact } : {}),
  }));
  const tail = rows.at(-1);
  return { events, ...(tail ? { last: { receivedAt: tail.received_at, id: tail.id } } : {}) };
}
