// Read-only views of `inbox_events` for the operator console, the admin API and the toolchain's
// export. Not a repository of its own: InboxEventsRepository holds one as `views` (one repository
// per table, its statements kept in two files). Each view is a Pick<> of the table's one row type, InboxEventEntity (camelCase
// aliases or snake_case names, as its statement returns them), plus its computed columns.
import type { EntityManager } from 'typeorm';
import type { SnakeRow } from '../sql/snake-row';
import type { InboxEventEntity } from './inbox-event.entity';
import type { RunEntity } from './run.entity';
import { sameDay } from '../partitions/ledger-id';
import { unpackPayload, withPayload } from './packed-payload';

/** What ofContact's SQL reads from a jsonb payload, read from an unpacked one. */
function contactVersionOf(payload: Record<string, unknown>): string | null {
  const data = payload.data as { updatedAt?: unknown } | undefined;
  return typeof data?.updatedAt === 'string' ? data.updatedAt : null;
}

/** Needs `transaction` besides `query`: the pool (DataSource) or an EntityManager. */
export type Db = Pick<EntityManager, 'query' | 'transaction'>;

/** A row's decision as one jsonb object, whichever form it keeps it in (migration 1796020000000). */
const DECISION = `inbox_decision(unmatched, unmatched_set, unmatched_rules)`;

const VIEW = `id, event_key AS "eventKey", type, status, outcome, ${DECISION} AS unmatched, attempts, last_error AS "lastError",
  contact_id AS "contactId", received_at AS "receivedAt", processed_at AS "processedAt"`;

/**
 * An event as the events processor works it (find, findMany): columns of the table's one row type,
 * InboxEventEntity, as `SELECT` returns them. `previous_contact`: the contact before this event,
 * captured with the mirror upsert when a change operator needs it.
 */
export type InboxEventRow = Pick<
  SnakeRow<InboxEventEntity>,
  | 'id'
  | 'event_at'
  | 'type'
  | 'payload'
  | 'status'
  | 'contact_id'
  | 'event_key'
  | 'attempts'
  | 'previous_contact'
>;

/** An event to explain (EventExplainer): the events worker's columns and the stored decision. */
export type EventToExplain = Omit<InboxEventRow, 'event_at'> & Pick<SnakeRow<InboxEventEntity>, 'unmatched'>;

/** `last_error` under the name the views give it. */
type EventError = { error: InboxEventEntity['lastError'] };

export type ContactDeliveryRow = Pick<
  InboxEventEntity,
  'id' | 'type' | 'eventKey' | 'status' | 'outcome' | 'unmatched' | 'receivedAt' | 'processedAt'
> &
  EventError & {
    /** contact.* events: the contact version the payload carries (the mirror took it unless outcome says otherwise). */
    contactVersion: string | null;
  };

export type FailedEventRow = Pick<InboxEventEntity, 'id' | 'type' | 'contactId' | 'receivedAt'> & EventError;

export interface InboxExportCursor {
  /** received_at as Postgres prints it (microseconds kept). */
  receivedAt: string;
  id: string;
}

export type InboxExportRow = Pick<
  SnakeRow<InboxEventEntity>,
  'id' | 'type' | 'payload' | 'contact_id' | 'received_at'
> & {
  /** received_at as text (microseconds kept, for the cursor). */
  cursor_at: string;
  /** The contact state one of the event's runs recorded (joined). */
  contact: RunEntity['contactSnapshot'];
  /** The contact before the event, when a change operator needed it (replays compare with it). */
  previous: InboxEventEntity['previousContact'];
};

/** The views, over the same pool or transaction as the repository that holds them. */
export class InboxEventViews {
  constructor(private readonly db: Db) {}

  /** A contact's deliveries, the newest `limit`, in time order (contact timeline). */
  async ofContact(contactId: string, limit: number): Promise<ContactDeliveryRow[]> {
    const rows: (ContactDeliveryRow & { packed: Buffer | null })[] = await this.db.query(
      `SELECT * FROM (SELECT id, type, event_key AS "eventKey", status, outcome, ${DECISION} AS unmatched, last_error AS error,
                             CASE WHEN type LIKE 'contact.%' THEN payload->'data'->>'updatedAt' END AS "contactVersion",
                             CASE WHEN type LIKE 'contact.%' THEN payload_packed END AS packed,
                             received_at AS "receivedAt",
                             processed_at AS "processedAt"
                        FROM inbox_events WHERE contact_id = $1 ORDER BY received_at DESC LIMIT $2) d
        ORDER BY "receivedAt"`,
      [contactId, limit],
    );
    return rows.map(({ packed, ...row }) =>
      packed ? { ...row, contactVersion: contactVersionOf(unpackPayload(packed)) } : row,
    );
  }

  /** Events whose processing failed for good, newest first. */
  failed(limit: number): Promise<FailedEventRow[]> {
    return this.db.query(
      `SELECT id, type, contact_id AS "contactId", last_error AS error, received_at AS "receivedAt" FROM inbox_events
        WHERE status = 'failed' ORDER BY received_at DESC LIMIT $1`,
      [limit],
    );
  }

  /** Custom sources' events whose contact was not found, newest first (IDX_inbox_events_contact_not_found). */
  withoutContact(limit: number): Promise<FailedEventRow[]> {
    return this.db.query(
      `SELECT id, type, contact_id AS "contactId", last_error AS error, received_at AS "receivedAt" FROM inbox_events
        WHERE outcome = 'contact_not_found' ORDER BY received_at DESC LIMIT $1`,
      [limit],
    );
  }

  /** Stored, not yet processed (the partial index IDX_inbox_events_pending): the events backlog. */
  async countPending(): Promise<number> {
    const [{ n }] = await this.db.query(
      `SELECT count(*)::int AS n FROM inbox_events WHERE status = 'pending'`,
    );
    return n;
  }

  async countFailed(): Promise<number> {
    const [{ n }] = await this.db.query(
      `SELECT count(*)::int AS n FROM inbox_events WHERE status = 'failed'`,
    );
    return n;
  }

  /** Newest first, for the admin list; the payload only in `show`. */
  /**
   * Stored events, newest first. `decided`: `unmatched` (processed, no rule matched: the compact
   * decision) or `matched` (processed, some rule matched); `contacts`: any of these contact ids.
   */
  list(f: {
    status?: string;
    type?: string;
    decided?: 'unmatched' | 'matched';
    contacts?: readonly string[];
    limit: number;
  }): Promise<Record<string, unknown>[]> {
    return this.db.query(
      `SELECT ${VIEW} FROM inbox_events
        WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR type = $2)
          AND ($3::text IS NULL OR (status = 'processed' AND (unmatched IS NOT NULL OR unmatched_rules IS NOT NULL) = ($3 = 'unmatched')))
          AND ($4::text[] IS NULL OR contact_id = ANY($4))
        ORDER BY received_at DESC LIMIT $5`,
      [f.status ?? null, f.type ?? null, f.decided ?? null, f.contacts ? [...f.contacts] : null, f.limit],
    );
  }

  /** One event as the explain on demand reads it: the columns the events worker reads, and its decision. */
  async forExplain(id: string): Promise<EventToExplain | undefined> {
    const [row] = await this.db.query(
      `SELECT id, type, payload, payload_packed, status, contact_id, event_key, attempts, previous_contact,
              previous_packed, ${DECISION} AS unmatched
         FROM inbox_events WHERE id = $1 AND ${sameDay('event_at', '$1')}`,
      [id],
    );
    return row && withPayload(row);
  }

  async show(id: string): Promise<Record<string, unknown> | undefined> {
    const [row] = await this.db.query(
      `SELECT ${VIEW}, payload, payload_packed FROM inbox_events WHERE id = $1 AND ${sameDay('event_at', '$1')}`,
      [id],
    );
    return row && withPayload(row);
  }

  /**
   * Events received in [since, until) after the cursor, oldest first, for the toolchain's export;
   * each with the contact state one of its runs recorded (message events are evaluated against a
   * contact read at the time, which the payload does not carry; an event no rule matched has no
   * runs, so no such state: the export leaves `contact` out).
   */
  async pageForExport(
    range: { since: Date; until: Date },
    after: InboxExportCursor | undefined,
    limit: number,
  ): Promise<InboxExportRow[]> {
    type Stored = Omit<InboxExportRow, 'previous'> & Pick<SnakeRow<InboxEventEntity>, 'previous_contact'>;
    const rows: (Stored & { payload_packed: Buffer | null; previous_packed: Buffer | null })[] =
      await this.db.query(
        // received_at travels as text too: a JS Date drops the microseconds the cursor compares.
        `SELECT e.id, e.type, e.payload, e.payload_packed, e.contact_id, e.received_at, e.received_at::text AS cursor_at,
              e.previous_contact, e.previous_packed,
              (SELECT r.contact_snapshot FROM runs r
                WHERE r.inbox_event_id = e.id AND r.contact_snapshot IS NOT NULL LIMIT 1) AS contact
         FROM inbox_events e
        WHERE e.received_at >= $1 AND e.received_at < $2
          AND ($3::timestamptz IS NULL OR (e.received_at, e.id) > ($3::timestamptz, $4::uuid))
        ORDER BY e.received_at, e.id
        LIMIT $5`,
        [range.since, range.until, after?.receivedAt ?? null, after?.id ?? null, limit],
      );
    // Read as the table names it, so withPayload unpacks it as for every other reader.
    return rows.map((row) => {
      const { previous_contact: previous, ...event } = withPayload(row);
      return { ...event, previous };
    });
  }
}
