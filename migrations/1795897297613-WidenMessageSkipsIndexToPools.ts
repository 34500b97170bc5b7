import type { MigrationInterface, QueryRunner } from 'typeorm';

const MESSAGES =
  "'needs_assignee', 'contact_blocked', 'channel_not_connected', 'policy_cap', 'quiet_hours', 'outside_window'";

/**
 * Needs attention also lists an assignment no pool member could take (`pool_full`, `pool_empty`:
 * src/language/policy/message-skips.ts): the partial index its 5-second counts read covers those
 * reasons too. Built again with the wider predicate; down() puts back the messages-only one.
 */
export class WidenMessageSkipsIndexToPools1795897297613 implements MigrationInterface {
  name = 'WidenMessageSkipsIndexToPools1795897297613';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "IDX_action_results_message_skips"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_action_results_message_skips" ON "action_results" ("finished_at") WHERE status = 'skipped' AND reason IN ('needs_assignee', 'contact_blocked', 'channel_not_connected', 'policy_cap', 'quiet_hours', 'outside_window', 'pool_full', 'pool_empty')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "IDX_action_results_message_skips"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_action_results_message_skips" ON "action_results" ("finished_at") WHERE status = 'skipped' AND reason IN (${MESSAGES})`,
    );
  }
}
