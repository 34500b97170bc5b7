import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event no rule matched keeps its decision on its own row (issue 35): which rule set judged it
 * and how many of its rules listened, instead of one `not_matched` run per listening rule. The
 * explain is rebuilt on demand from the stored event, its previous contact and the rule set.
 * Old `not_matched` runs stay as they are (readable, pruned by retention as before).
 */
export class InboxEventsUnmatchedDecision1795899378523 implements MigrationInterface {
  name = 'InboxEventsUnmatchedDecision1795899378523';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" ADD COLUMN IF NOT EXISTS "unmatched" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" DROP COLUMN IF EXISTS "unmatched"`);
  }
}
