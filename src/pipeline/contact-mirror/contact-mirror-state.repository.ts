// Every statement on `contact_mirror_state`, its one row ('contacts'): the full sync's resumable
// cursor (each page's upsert and the cursor commit in one statement), the incremental watermark
// and the freshness stamps. Its one row type is ContactMirrorStateRow, derived from the entity.
import type { Queryable } from '../../persistence/sql/queryable';
import { returnedRows } from '../../persistence/sql/returned-rows';
import type { SnakeRow } from '../../persistence/sql/snake-row';
import type { ContactMirrorStateEntity } from './contact-mirror-state.entity';
import { UPSERT_CONTACTS_SQL } from './contact-mirror.repository';

/** The contact_mirror_state row as `SELECT *` returns it. */
export type ContactMirrorStateRow = SnakeRow<ContactMirrorStateEntity>;

const STATE_ID = 'contacts';

/**
 * A full sync's page: the contacts' upsert and the cursor in one statement (a data-modifying CTE
 * runs to completion whether or not its rows are read). $1 records, $2 generation, $3 state id,
 * $4 next page, $5 the CRM's total, $6 the page's newest creation date.
 */
const FULL_SYNC_PAGE_SQL = `
WITH upserted AS (${UPSERT_CONTACTS_SQL} RETURNING 1)
UPDATE contact_mirror_state SET full_sync_page = $4, full_sync_total = $5, list_calls = list_calls + 1,
       full_sync_newest_created_at = GREATEST(full_sync_newest_created_at, $6::timestamptz), updated_at = now()
 WHERE id = $3`;

export class ContactMirrorStateRepository {
  constructor(private readonly db: Queryable) {}

  /** The same repository over a transaction or a dedicated connection. */
  in(db: Queryable): ContactMirrorStateRepository {
    return new ContactMirrorStateRepository(db);
  }

  /** The row, created on first use. */
  async load(): Promise<ContactMirrorStateRow> {
    await this.db.query(`INSERT INTO contact_mirror_state (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [
      STATE_ID,
    ]);
    const [row] = await this.db.query(`SELECT * FROM contact_mirror_state WHERE id = $1`, [STATE_ID]);
    return row;
  }

  /** The row, locked until the transaction ends. */
  async lock(): Promise<ContactMirrorStateRow> {
    const [row] = await this.db.query(`SELECT * FROM contact_mirror_state WHERE id = $1 FOR UPDATE`, [
      STATE_ID,
    ]);
    return row;
  }

  async noteEvent(): Promise<void> {
    await this.db.query(
      `INSERT INTO contact_mirror_state (id, last_event_at) VALUES ($1, now())
       ON CONFLICT (id) DO UPDATE SET last_event_at = now(), updated_at = now()`,
      [STATE_ID],
    );
  }

  /** A new full sync from page 1, with the next generation. */
  async startFullSync(): Promise<ContactMirrorStateRow> {
    const [row] = returnedRows<ContactMirrorStateRow>(
      await this.db.query(
        `UPDATE contact_mirror_state SET full_sync_page = 1, full_sync_generation = full_sync_generation + 1,
                full_sync_started_at = now(), full_sync_total = NULL, full_sync_newest_created_at = NULL, updated_at = now()
          WHERE id = $1 RETURNING *`,
        [STATE_ID],
      ),
    );
    return row;
  }

  /** A read page's contacts (`records`: mirrorRecords' JSON) and the cursor past it, in one statement. */
  async fullSyncPage(
    records: string,
    generation: number,
    nextPage: number,
    total: number,
    newestCreatedAt: string | null,
  ): Promise<void> {
    await this.db.query(FULL_SYNC_PAGE_SQL, [
      records,
      generation,
      STATE_ID,
      nextPage,
      total,
      newestCreatedAt,
    ]);
  }

  /** An empty page read: the cursor past it. */
  async fullSyncEmptyPage(nextPage: number, total: number): Promise<void> {
    await this.db.query(
      `UPDATE contact_mirror_state SET full_sync_page = $2, full_sync_total = $3, list_calls = list_calls + 1,
              updated_at = now() WHERE id = $1`,
      [STATE_ID, nextPage, total],
    );
  }

  async finishFullSync(): Promise<void> {
    await this.db.query(
      `UPDATE contact_mirror_state SET full_sync_page = NULL, last_full_sync_at = now(), last_incremental_at = now(),
              watermark_created_at = GREATEST(watermark_created_at, full_sync_newest_created_at), updated_at = now()
        WHERE id = $1`,
      [STATE_ID],
    );
  }

  /** An incremental page read: one more list call, the watermark moved to its newest contact. */
  async incrementalPage(newestCreatedAt: string | null): Promise<void> {
    await this.db.query(
      `UPDATE contact_mirror_state SET list_calls = list_calls + 1, updated_at = now(),
              watermark_created_at = GREATEST(watermark_created_at, $2::timestamptz) WHERE id = $1`,
      [STATE_ID, newestCreatedAt],
    );
  }

  async finishIncremental(): Promise<void> {
    await this.db.query(
      `UPDATE contact_mirror_state SET last_incremental_at = now(), updated_at = now() WHERE id = $1`,
      [STATE_ID],
    );
  }
}
