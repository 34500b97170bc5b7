// The intake's statements on `inbox_events`: its group commit (one multi-row insert per batch of
// deliveries, committed synchronously before the 2xx) and the look-up of keys seen before. A part
// of InboxEventsRepository (`intake`), which owns the table.
import type { Db } from './inbox-event-views.repository';

export interface NewInboxEvent {
  key: string;
  type: string;
  /** The delivery's JSON text: Postgres parses it, no re-serialisation. */
  payloadJson: string;
  /** The exact text when payloadJson had to differ from it (src/pipeline/intake/inbox-payload.ts storableJson). */
  rawBody?: string | null;
  contactId: string | null;
  /**
   * The event's time from its signed body (src/pipeline/intake/inbox-payload.ts eventTimeOf), the
   * partition key: a resend carries the same, so `(event_key, event_at)` refuses it. Null when the
   * body has none: dated by arrival, deduplicated under a lock on its key.
   */
  eventAt?: Date | null;
}

/** The intake's insert; with `$8` the rows without a body time are first looked for by key on every day. */
const INSERT_INBOX_EVENTS = `INSERT INTO inbox_events (id, event_key, type, payload, contact_id, raw_body, event_at, batch_key)
       SELECT ledger_uuid(coalesce(r.event_at, now())), r.key, r.type, r.payload, r.contact_id, r.raw_body,
              coalesce(r.event_at, now()), $7::uuid
         FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[], $5::text[], $6::timestamptz[])
           AS r(key, type, payload, contact_id, raw_body, event_at)
        WHERE r.event_at IS NOT NULL OR NOT $8::boolean
           OR NOT EXISTS (SELECT 1 FROM inbox_events e WHERE e.event_key = r.key)
       ON CONFLICT DO NOTHING
       RETURNING id, event_key, current_setting('synchronous_commit') AS commit_mode`;

export class InboxIntake {
  constructor(private readonly db: Db) {}

  /**
   * One multi-row insert in one statement (one round trip, autocommit): the intake answers 2xx only
   * for what is durable, so `db` must be a pool whose sessions commit synchronously (the intake's
   * own pool, src/pipeline/intake/intake-db.ts; the app's pool commits asynchronously, src/persistence/schema/data-source.ts).
   * The statement returns the session's `synchronous_commit` with every row so the caller can refuse
   * to acknowledge rows committed any other way. Keys seen before are not inserted and not returned.
   *
   * A row with a body time meets a resend of itself in its day (no conflict target: the legacy
   * partition's key without the time arbitrates too, migration 1795990000000). A row without one is
   * dated by arrival, which a resend does not share: the batch then takes a lock per such key and
   * looks for the key in every day first (BEGIN, lock, insert, COMMIT: two more round trips, only
   * for custom sources without a time).
   */
  insertOnSynchronousSession(
    rows: readonly NewInboxEvent[],
    batchKey: string,
  ): Promise<{ id: string; event_key: string; commit_mode: string }[]> {
    const timeless = rows.filter((r) => !r.eventAt).map((r) => r.key);
    const params = (lookUp: boolean) => [
      rows.map((r) => r.key),
      rows.map((r) => r.type),
      rows.map((r) => r.payloadJson),
      rows.map((r) => r.contactId),
      rows.map((r) => r.rawBody ?? null),
      rows.map((r) => r.eventAt ?? null),
      batchKey,
      lookUp,
    ];
    if (timeless.length === 0) return this.db.query(INSERT_INBOX_EVENTS, params(false));
    return this.db.transaction(async (tx) => {
      await tx.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('inbox:' || k, 0)) FROM unnest($1::text[]) AS k ORDER BY k`,
        [[...new Set(timeless)].sort()],
      );
      return tx.query(INSERT_INBOX_EVENTS, params(true));
    });
  }

  idsByKeys(keys: string[]): Promise<{ id: string; event_key: string }[]> {
    return this.db.query(`SELECT id, event_key FROM inbox_events WHERE event_key = ANY($1)`, [keys]);
  }
}
