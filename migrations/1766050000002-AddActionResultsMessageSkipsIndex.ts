import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The customer messages not sent that an operator must see (src/language/policy/message-skips.ts):
 * counted by the overview every 5 s and by the alerts every 15 s, listed under Needs attention. A
 * partial index on them alone, by finished_at: the rest of action_results (every other skip
 * included) stays out of those reads. The reasons are the list of message-skips.ts; a spec keeps
 * the two the same (message-skips-index.spec.ts).
 */
export class AddActionResultsMessageSkipsIndex1766050000002 implements MigrationInterface {
  name = 'AddActionResultsMessageSkipsIndex1766050000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_action_results_message_skips" ON "action_results" ("finished_at") WHERE status = 'skipped' AND reason IN ('needs_assignee', 'contact_blocked', 'channel_not_connected', 'policy_cap', 'quiet_hours', 'outside_window')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_action_results_message_skips"`);
  }
}
