import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A rule's goal after its run: a run of a rule with a goal that succeeded stays enrolled for
 * conversion until `goal_until` (its window); a later event about the contact meeting the goal in
 * that window sets `goal_reached_at`. Partial index: only enrolled, unconverted runs (rules without
 * a goal never enter it), so the event path's lookup of a contact's runs stays on a small index.
 */
export class AddRunGoalWindow1765950000000 implements MigrationInterface {
  name = 'AddRunGoalWindow1765950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" ADD "goal_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "runs" ADD "goal_reached_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "IDX_runs_goal_enrolled" ON "runs" ("contact_id", "goal_until") WHERE goal_until IS NOT NULL AND goal_reached_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_runs_goal_enrolled"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "goal_reached_at"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "goal_until"`);
  }
}
