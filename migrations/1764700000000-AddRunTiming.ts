import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Waits, windows and limits at run time: a run keeps the timing plan of the rule it started with,
 * when it waits until (a delayed job wakes it), and what happened to it over time (waiting,
 * resumed, cancelled and why) for GET /admin/runs/:id.
 */
export class AddRunTiming1764700000000 implements MigrationInterface {
  name = 'AddRunTiming1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "runs" ADD "timing" jsonb`);
    await q.query(`ALTER TABLE "runs" ADD "waiting_until" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "runs" ADD "timeline" jsonb NOT NULL DEFAULT '[]'`);
    // Events look up the waiting runs of their contact (until / deleted contacts), the reconciler the overdue ones.
    await q.query(
      `CREATE INDEX "IDX_runs_waiting" ON "runs" ("contact_id", "waiting_until") WHERE status = 'waiting'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_runs_waiting"`);
    await q.query(`ALTER TABLE "runs" DROP COLUMN "timeline"`);
    await q.query(`ALTER TABLE "runs" DROP COLUMN "waiting_until"`);
    await q.query(`ALTER TABLE "runs" DROP COLUMN "timing"`);
  }
}
