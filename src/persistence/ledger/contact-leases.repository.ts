// Every statement on `contact_leases`: who works on a contact now. A lease is a row with an expiry,
// taken and renewed by single statements over the pool, so a job that waits (for CRM budget, for a
// slow CRM) holds no Postgres connection. A crashed holder's lease simply expires.
import type { Queryable } from '../sql/queryable';
import { returnedRows } from '../sql/returned-rows';

export class ContactLeasesRepository {
  constructor(private readonly db: Queryable) {}

  /** Takes the contact's lease when it is free or expired; false when someone else holds it. */
  async acquire(contactId: string, holder: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO contact_leases (contact_id, holder, expires_at)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (contact_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
        WHERE contact_leases.expires_at < now()
       RETURNING holder`,
      [contactId, holder, ttlMs],
    );
    return returnedRows(rows).length === 1;
  }

  /** Extends a lease still held by `holder`; false when it expired and someone else took it (or it is gone). */
  async renew(contactId: string, holder: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE contact_leases SET expires_at = now() + $3 * interval '1 millisecond'
        WHERE contact_id = $1 AND holder = $2 RETURNING holder`,
      [contactId, holder, ttlMs],
    );
    return returnedRows(rows).length === 1;
  }

  async release(contactId: string, holder: string): Promise<void> {
    await this.db.query(`DELETE FROM contact_leases WHERE contact_id = $1 AND holder = $2`, [
      contactId,
      holder,
    ]);
  }

  /** The current holder of a contact's unexpired lease (tests, operators). */
  async holderOf(contactId: string): Promise<string | undefined> {
    const rows: { holder: string }[] = await this.db.query(
      `SELECT holder FROM contact_leases WHERE contact_id = $1 AND expires_at >= now()`,
      [contactId],
    );
    return rows[0]?.holder;
  }
}
