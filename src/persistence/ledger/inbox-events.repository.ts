// Every statement on `inbox_events`: the events processor's claim and mark, the reconciler's scan
// and the admin replay here; the intake's group commit (`intake`: inbox-intake.repository.ts) and
// the console's reads (`views`) as parts.
import { affectedRows, returnedRows } from '../sql/returned-rows';
import type { InboxOutcome, UnmatchedDecision } from './inbox-event.entity';
import { InboxEventViews, type Db, type InboxEventRow } from './inbox-event-views.repository';
import { InboxIntake } from './inbox-intake.repository';
import { sameDay, sameDays } from '../partitions/ledger-id';
import { packPayload, unpackPayload, withPayload, type ToPack } from './packed-payload';
import { withRuleSetRefs } from './rule-set-refs.repository';

export type {
  ContactDeliveryRow,
  InboxEventRow,
  FailedEventRow,
  InboxExportCursor,
  InboxExportRow,
} from './inbox-event-views.repository';

/**
 * The SET of a processed mark that keeps a jsonb column packed instead (`packed`: the bytes, or
 * NULL to keep the jsonb). The packed text is JSON as JavaScript wrote it, so a number with more
 * than 15 digits (beyond what a double holds exactly: a 19-digit id, 1e400) would not come back as
 * the CRM sent it: such a value keeps its jsonb, which holds every digit. About 5 µs of Postgres
 * per row (psql, 12,800 bench payloads).
 */
const packedInstead = (column: 'payload' | 'previous_contact', into: string, packed: string) => {
  const pack = `${packed} IS NOT NULL AND ${column} IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM jsonb_path_query(${column}, 'strict $.** ? (@.type() == "number")') v
       WHERE length(regexp_replace(v::text, '[^0-9]', '', 'g')) > 15)`;
  return `${into} = CASE WHEN ${pack} THEN ${packed} ELSE ${into} END,
          ${column} = CASE WHEN ${pack} THEN NULL ELSE ${column} END`;
};

/**
 * The claim of the events whose ids are in `ids` (a uuid[] parameter): pending → processed, with
 * the decision of their rules that did not match from `decisions` (a jsonb parameter: id → decision
 * or null) and, when given, more SET clauses (`also`). Rows are locked in id order; an event no
 * longer pending is left as it is. Returns the ids claimed.
 *
 * The decision is kept by reference: its rule set and commit as a `rule_set_refs` id, whose row
 * the statement also inserts unless this process has seen it committed (withRuleSetRefs,
 * rule-set-refs.repository.ts; migration 1796020000000).
 */
export function claimSql(ids: string, decisions: string, also = ''): string {
  const decision = `(${decisions}::jsonb) -> id::text`;
  return `UPDATE inbox_events SET status = 'processed', processed_at = now(),
                unmatched_set = rule_set_ref(${decision}), unmatched_rules = (${decision} ->> 'rules')::int
                ${also ? `, ${also}` : ''}
          WHERE id IN (SELECT unnest(${ids}::uuid[]) ORDER BY 1) AND ${sameDays('event_at', ids)} AND status = 'pending'
      RETURNING id`;
}

/** Event keys of operator replays start with this: they skip the mirror and loop protection. */
export const REPLAY_KEY_PREFIX = 'replay:';

/**
 * The claims, marks and the reconciler's scan, with the intake's group commit as `intake` and the
 * console's and admin's reads as `views`.
 */
export class InboxEventsRepository {
  /** The intake's group commit and its look-up of keys seen before. */
  readonly intake: InboxIntake;
  /** The read-only views (console, admin API, the toolchain's export). */
  readonly views: InboxEventViews;

  constructor(private readonly db: Db) {
    this.intake = new InboxIntake(db);
    this.views = new InboxEventViews(db);
  }

  in(db: Db): InboxEventsRepository {
    return new InboxEventsRepository(db);
  }

  /**
   * Retention: deletes up to `limit` processed events received before `cutoff` (runs keep their
   * row, their inbox_event_id becomes NULL). Pending and failed events stay: work or evidence.
   * A redelivery of a deleted event would be taken as new, so the age must stay far beyond the
   * CRM's retry horizon (minutes).
   */
  async deleteProcessedBefore(cutoff: Date, limit: number): Promise<number> {
    const result = await this.db.query(
      // With the partition key, each id is looked up in its own day only.
      `DELETE FROM inbox_events WHERE (id, event_at) IN (
         SELECT id, event_at FROM inbox_events WHERE status = 'processed' AND received_at < $1 LIMIT $2)`,
      [cutoff, limit],
    );
    return affectedRows(result);
  }

  async find(id: string): Promise<InboxEventRow | undefined> {
    return (await this.findMany([id]))[0];
  }

  /** The rows of several events in one read (an events job of an intake batch); missing ids are left out. */
  async findMany(ids: readonly string[]): Promise<InboxEventRow[]> {
    const rows: (InboxEventRow & { payload_packed: Buffer | null; previous_packed: Buffer | null })[] =
      await this.db.query(
        `SELECT id, event_at, type, payload, payload_packed, status, contact_id, event_key, attempts, previous_contact,
              previous_packed
         FROM inbox_events WHERE id = ANY($1::uuid[]) AND ${sameDays('event_at', '$1')}`,
        [ids],
      );
    return rows.map(withPayload);
  }

  /**
   * Events claimed in one statement with the decision of their rules that did not match on their
   * own row (no runs rows for those; null: every listening rule matched): pending → processed, ids
   * locked in a fixed order. The ids claimed; an event no longer
   * pending (another job claimed it) is left as it is. An event in `toPack` (no rule matched: no run
   * will ever read its payload in SQL) keeps its payload, and its previous contact state, packed
   * instead of as jsonb (packed-payload.ts).
   */
  async claimUnmatched(
    decisions: ReadonlyMap<string, UnmatchedDecision | null>,
    toPack: ReadonlyMap<string, ToPack> = new Map(),
  ): Promise<Set<string>> {
    const ids = [...decisions.keys()].sort();
    const parts = ids.map((id) => toPack.get(id));
    const at = 'array_position($1::uuid[], id)';
    const rows: { id: string }[] = returnedRows(
      await withRuleSetRefs(this.db, decisions, '$2', (refs) =>
        this.db.query(
          `${refs && `WITH ${refs}`} ${claimSql(
            '$1',
            '$2',
            `${packedInstead('payload', 'payload_packed', `($3::bytea[])[${at}]`)},
             ${packedInstead('previous_contact', 'previous_packed', `($4::bytea[])[${at}]`)}`,
          )}`,
          [
            ids,
            JSON.stringify(Object.fromEntries(decisions)),
            parts.map((p) => (p ? packPayload(p.payload) : null)),
            parts.map((p) => (p?.previous ? packPayload(p.previous) : null)),
          ],
        ),
      ),
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * `note` (why the mirror skipped the payload) replaces last_error; without one it is kept. With
   * `toPack` (an event that leaves no run), the payload is kept packed from now on, as claimUnmatched does.
   */
  async markProcessed(
    id: string,
    outcome: InboxOutcome | null = null,
    note: string | null = null,
    toPack?: ToPack,
  ) {
    await this.db.query(
      `UPDATE inbox_events SET status = 'processed', processed_at = now(), outcome = $2,
              last_error = COALESCE($3, last_error),
              ${packedInstead('payload', 'payload_packed', '$4::bytea')},
              ${packedInstead('previous_contact', 'previous_packed', '$5::bytea')}
        WHERE id = $1 AND ${sameDay('event_at', '$1')}`,
      [
        id,
        outcome,
        note,
        toPack ? packPayload(toPack.payload) : null,
        toPack?.previous ? packPayload(toPack.previous) : null,
      ],
    );
  }

  /** The contact of a custom source's event, once the events worker has looked it up. */
  async setContactId(id: string, contactId: string): Promise<void> {
    await this.db.query(
      `UPDATE inbox_events SET contact_id = $2 WHERE id = $1 AND ${sameDay('event_at', '$1')} AND contact_id IS NULL`,
      [id, contactId],
    );
  }

  /** Counts a failed attempt and keeps its error; the attempts so far, or undefined if no longer pending. */
  async recordFailedAttempt(id: string, error: string): Promise<number | undefined> {
    const [row] = returnedRows<{ attempts: number }>(
      await this.db.query(
        `UPDATE inbox_events SET attempts = attempts + 1, last_error = $2
          WHERE id = $1 AND ${sameDay('event_at', '$1')} AND status = 'pending' RETURNING attempts`,
        [id, error.slice(0, 2000)],
      ),
    );
    return row?.attempts;
  }

  /** pending → failed; true for the one caller that made the change (it logs and counts it). */
  async markFailed(id: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE inbox_events SET status = 'failed' WHERE id = $1 AND ${sameDay('event_at', '$1')} AND status = 'pending' RETURNING id`,
        [id],
      ),
    );
    return rows.length > 0;
  }

  /** failed → pending with its attempts reset (an operator's replay); false when it was not failed. */
  async resetFailed(id: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE inbox_events SET status = 'pending', attempts = 0, processed_at = NULL
          WHERE id = $1 AND ${sameDay('event_at', '$1')} AND status = 'failed' RETURNING id`,
        [id],
      ),
    );
    return rows.length > 0;
  }

  /** Pending events received before `staleAfterMs` ago, oldest first, with the intake batch that stored them. */
  stalePending(staleAfterMs: number, limit: number): Promise<{ id: string; batchKey: string | null }[]> {
    return this.db.query(
      `SELECT id, batch_key AS "batchKey" FROM inbox_events
        WHERE status = 'pending' AND received_at < now() - ($1::int * interval '1 millisecond')
        ORDER BY received_at LIMIT $2`,
      [staleAfterMs, limit],
    );
  }

  /**
   * A new pending copy of a stored event (an operator's replay: a new trigger); undefined if none.
   * Its key, `replay:<force|safe>:<original event id>:<replay id>`, names the original event (a
   * replay of a replay names the first one): without force the runner skips the messages already
   * sent for it (the run row's replay_of, migration 1796010000000).
   */
  async insertReplayCopy(id: string, replayId: string, force = false): Promise<string | undefined> {
    // A packed payload is unpacked here; a jsonb one is copied by Postgres, every digit as it was.
    const [packed]: { payload_packed: Buffer }[] = await this.db.query(
      `SELECT payload_packed FROM inbox_events WHERE id = $1 AND ${sameDay('event_at', '$1')} AND payload IS NULL`,
      [id],
    );
    // A pending row always holds its payload as jsonb: the runs of the copy read it in SQL.
    const [copy] = await this.db.query(
      `INSERT INTO inbox_events (id, event_at, event_key, type, payload, contact_id)
       SELECT ledger_uuid(now()), now(), $3 || CASE WHEN event_key ~ '^replay:(force|safe):' THEN split_part(event_key, ':', 3) ELSE id::text END
              || ':' || $2, type, coalesce(payload, $4::jsonb), contact_id
         FROM inbox_events WHERE id = $1 AND ${sameDay('event_at', '$1')}
       RETURNING id`,
      [
        id,
        replayId,
        `${REPLAY_KEY_PREFIX}${force ? 'force' : 'safe'}:`,
        packed ? JSON.stringify(unpackPayload(packed.payload_packed)) : null,
      ],
    );
    return copy?.id;
  }

  /** The status of one stored event, undefined if none (the console's replay form checks it). */
  async statusOf(id: string): Promise<string | undefined> {
    const [row] = await this.db.query(
      `SELECT status FROM inbox_events WHERE id = $1 AND ${sameDay('event_at', '$1')}`,
      [id],
    );
    return row?.status;
  }
}
