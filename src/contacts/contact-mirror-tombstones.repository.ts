// Statements of the retention job on `contact_mirror_tombstones` (the mirror's own writes are in
// contact-mirror.service.ts and mirror-sql.ts): a tombstone keeps a late event from bringing a
// deleted contact back into the mirror, for as long as such an event can still arrive.
import type { Queryable } from '../persistence/sql/queryable';
import { affectedRows } from '../persistence/sql/returned-rows';

export class ContactMirrorTombstonesRepository {
  constructor(private readonly db: Queryable) {}

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
