// Every statement on `enrollments`: once / cooldown claims per (rule, contact). The primary key and
// the conditional upsert make each claim one atomic statement, safe under concurrency.
import type { Queryable } from '../db/queryable';

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
}
