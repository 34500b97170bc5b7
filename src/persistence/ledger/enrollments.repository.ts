// Every statement on `enrollments`: once / cooldown claims per (rule, contact). The primary key and
// the conditional upsert make each claim one atomic statement, safe under concurrency.
import type { Queryable } from '../sql/queryable';

export class EnrollmentsRepository {
  constructor(private readonly db: Queryable) {}

  in(db: Queryable): EnrollmentsRepository {
    return new EnrollmentsRepository(db);
  }

  /** True the first time the rule fires for the contact, false ever after (`once: per-contact`). */
  async claimOnce(ruleId: string, contactId: string, runId: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO enrollments (rule_id, contact_id, last_run_id, last_fired_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (rule_id, contact_id) DO NOTHING RETURNING rule_id`,
      [ruleId, contactId, runId],
    );
    return rows.length > 0;
  }

  /** True when the rule last fired for the contact at least `cooldownMs` ago (or never). */
  async claimCooldown(
    ruleId: string,
    contactId: string,
    runId: string,
    cooldownMs: number,
  ): Promise<boolean> {
    // The WHERE on the upsert makes the check and the claim one atomic statement.
    const rows = await this.db.query(
      `INSERT INTO enrollments (rule_id, contact_id, last_run_id, last_fired_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (rule_id, contact_id) DO UPDATE
         SET last_run_id = EXCLUDED.last_run_id, last_fired_at = now(), fire_count = enrollments.fire_count + 1
         WHERE enrollments.last_fired_at <= now() - ($4::bigint * interval '1 millisecond')
       RETURNING rule_id`,
      [ruleId, contactId, runId, cooldownMs],
    );
    return rows.length > 0;
  }

  /**
   * `at-most: N` (with a cooldown, if the rule has one): true while the rule fired fewer than N
   * times for the contact (and not within the cooldown). One atomic statement, like the others.
   * False tells which held it back.
   */
  async claimUpTo(
    ruleId: string,
    contactId: string,
    runId: string,
    max: number,
    cooldownMs: number | undefined,
  ): Promise<true | 'at_most' | 'cooldown'> {
    const rows = await this.db.query(
      `INSERT INTO enrollments (rule_id, contact_id, last_run_id, last_fired_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (rule_id, contact_id) DO UPDATE
         SET last_run_id = EXCLUDED.last_run_id, last_fired_at = now(), fire_count = enrollments.fire_count + 1
         WHERE enrollments.fire_count < $4
           AND ($5::bigint IS NULL OR enrollments.last_fired_at <= now() - ($5::bigint * interval '1 millisecond'))
       RETURNING rule_id`,
      [ruleId, contactId, runId, max, cooldownMs ?? null],
    );
    if (rows.length > 0) return true;
    const [row] = await this.db.query(
      `SELECT fire_count FROM enrollments WHERE rule_id = $1 AND contact_id = $2`,
      [ruleId, contactId],
    );
    return row && row.fire_count >= max ? 'at_most' : 'cooldown';
  }
}
