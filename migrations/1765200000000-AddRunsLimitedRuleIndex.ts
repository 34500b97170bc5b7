import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rebuilding a rule's `limit` counter from the ledger after Redis lost it counts the rule's runs
 * updated in the period (RunsRepository.views.countLimitSlots). Partial: only runs of limited rules pay
 * for keeping it.
 */
export class AddRunsLimitedRuleIndex1765200000000 implements MigrationInterface {
  name = 'AddRunsLimitedRuleIndex1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_runs_limited_rule_updated" ON "runs" ("rule_id", "updated_at") WHERE timing ? 'limit'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_runs_limited_rule_updated"`);
  }
}
