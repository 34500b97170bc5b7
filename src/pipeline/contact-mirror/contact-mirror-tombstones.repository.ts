// Every statement on `contact_mirror_tombstones`: a tombstone keeps a late event or an older sync
// page from bringing a deleted contact back into the mirror, for as long as one can still arrive
// (the mirror's upsert reads them: contact-mirror.repository.ts).
import type { Queryable } from '../../persistence/sql/queryable';
import { affectedRows } from '../../persistence/sql/returned-rows';

export class ContactMirrorTombstonesRepository {
  constructor(private readonly db: Queryable) {}

  /** The same repository over a transaction or a dedicated connection. */
  in(db: Queryable): ContactMirrorTombstonesRepository {
    return new ContactMirrorTombstonesRepository(db);
  }

  async add(contactId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO contact_mirror_tombstones (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`,
      [contactId],
    );
  }

  /** At the end of a full sync: tombstones older than 30 days. */
  async deleteExpired(): Promise<void> {
    await this.db.query(
      `DELETE FROM contact_mirror_tombstones WHERE deleted_at < now() - interval '30 days'`,
    );
  }

  /** Retention: up to `limit` tombstones of contacts deleted before `cutoff`. */
  async deleteBefore(cutoff: Date, limit: number): Promise<number> {
    return affectedRows(
      await this.db.query(
        `DELETE FROM contact_mirror_tombstones WHERE id IN (
           SELECT id FROM contact_mirror_tombstones WHERE deleted_at < $1 LIMIT $2)`,
        [cutoff, limit],
      ),
    );
  }
}
