// Every statement on `inbox_events`: the intake's group commit, the events processor's claim and
// mark, the reconciler's scan and the admin replay.
import type { EntityManager } from 'typeorm';
import { returnedRows } from '../db/returned-rows';
import type { InboxStatus } from './inbox-event.entity';

export interface NewInboxEvent {
  key: string;
  type: string;
  /** The delivery's exact JSON text: Postgres parses it, no re-serialisation. */
  payloadJson: string;
  contactId: string | null;
}

export interface InboxEventRow {
  id: string;
  type: string;
  payload: { id?: string; type: string; createdAt?: string; data: Record<string, unknown> };
  status: InboxStatus;
  contact_id: string | null;
  event_key: string;
}

/** Event keys of operator replays start with this: they skip the mirror and loop protection. */
export const REPLAY_KEY_PREFIX = 'replay:';

/** Needs `transaction` besides `query`: the pool (DataSource) or an EntityManager. */
type Db = Pick<EntityManager, 'query' | 'transaction'>;

export class InboxEventsRepository {
  constructor(private readonly db: Db) {}

  in(db: Db): InboxEventsRepository {
    return new InboxEventsRepository(db);
  }

  /**
   * One multi-row insert, committed synchronously (the pool's default is asynchronous commit, see
   * src/db/data-source.ts): the intake answers 2xx only for what is durable. Keys seen before are
   * not inserted and not returned.
   */
  insertDurably(rows: readonly NewInboxEvent[]): Promise<{ id: string; event_key: string }[]> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL synchronous_commit = on`);
      return tx.query(
        `INSERT INTO inbox_events (event_key, type, payload, contact_id)
         SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[])
         ON CONFLICT (event_key) DO NOTHING RETURNING id, event_key`,
        [
          rows.map((r) => r.key),
          rows.map((r) => r.type),
          rows.map((r) => r.payloadJson),
          rows.map((r) => r.contactId),
        ],
      );
    });
  }

  idsByKeys(keys: string[]): Promise<{ id: string; event_key: string }[]> {
    return this.db.query(`SELECT id, event_key FROM inbox_events WHERE event_key = ANY($1)`, [keys]);
  }

  async find(id: string): Promise<InboxEventRow | undefined> {
    const [row] = await this.db.query(
      `SELECT id, type, payload, status, contact_id, event_key FROM inbox_events WHERE id = $1`,
      [id],
    );
    return row;
  }

  /**
   * Marks a pending event processed and keeps its row locked for the rest of the transaction:
   * lockPending and markProcessed in one statement. False when it was no longer pending (a second
   * copy of the event's job waits on the lock, then finds it processed and writes nothing).
   */
  async claimPending(id: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE inbox_events SET status = 'processed', processed_at = now()
          WHERE id = $1 AND status = 'pending' RETURNING id`,
        [id],
      ),
    );
    return rows.length > 0;
  }

  async markProcessed(id: string): Promise<void> {
    await this.db.query(`UPDATE inbox_events SET status = 'processed', processed_at = now() WHERE id = $1`, [
      id,
    ]);
  }

  /** Pending events received more than `staleAfterMs` ago, oldest first (reconciler). */
  async stalePending(staleAfterMs: number, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM inbox_events
        WHERE status = 'pending' AND received_at < now() - ($1::int * interval '1 millisecond')
        ORDER BY received_at LIMIT $2`,
      [staleAfterMs, limit],
    );
    return rows.map((r) => r.id);
  }

  /** A new pending copy of a stored event (an operator's replay: a new trigger); undefined if none. */
  async insertReplayCopy(id: string, replayId: string): Promise<string | undefined> {
    const [copy] = await this.db.query(
      `INSERT INTO inbox_events (event_key, type, payload, contact_id)
       SELECT $3 || $2 || ':' || event_key, type, payload, contact_id FROM inbox_events WHERE id = $1
       RETURNING id`,
      [id, replayId, REPLAY_KEY_PREFIX],
    );
    return copy?.id;
  }
}
