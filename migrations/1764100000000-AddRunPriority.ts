import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Run priority as a column, set on insert (events interactive, sweeps bulk), instead of being
 * derived from `trigger_key LIKE 'sweep%'` wherever a run is read.
 */
export class AddRunPriority1764100000000 implements MigrationInterface {
  name = 'AddRunPriority1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "runs" ADD "priority" text NOT NULL DEFAULT 'interactive'`);
    await q.query(`UPDATE "runs" SET "priority" = 'bulk' WHERE "trigger_key" LIKE 'sweep%'`);
    // No default from now on: whoever inserts a run says which it is.
    await q.query(`ALTER TABLE "runs" ALTER COLUMN "priority" DROP DEFAULT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "runs" DROP COLUMN "priority"`);
  }
}
