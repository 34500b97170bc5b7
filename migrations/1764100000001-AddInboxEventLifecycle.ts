import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A bounded life for stored events: attempts, the last error, `failed` after EVENT_MAX_ATTEMPTS
 * (listed by the admin API), and the outcome of a processed event (e.g. contact_gone).
 */
export class AddInboxEventLifecycle1764100000001 implements MigrationInterface {
  name = 'AddInboxEventLifecycle1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "inbox_events" ADD "attempts" integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "inbox_events" RENAME COLUMN "error" TO "last_error"`);
    await q.query(`ALTER TABLE "inbox_events" ADD "outcome" text`);
    await q.query(
      `CREATE INDEX "IDX_inbox_events_failed" ON "inbox_events" ("received_at") WHERE status = 'failed'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_inbox_events_failed"`);
    await q.query(`ALTER TABLE "inbox_events" DROP COLUMN "outcome"`);
    await q.query(`ALTER TABLE "inbox_events" RENAME COLUMN "last_error" TO "error"`);
    await q.query(`ALTER TABLE "inbox_events" DROP COLUMN "attempts"`);
  }
}
