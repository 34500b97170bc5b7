import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The daily retention job also prunes the contact journal and ended segment sweeps, in batches of
 * `... WHERE <age> < cutoff LIMIT n`: each batch finds its rows by index, not by a scan.
 */
export class AddRetentionIndexesForJournalAndSweeps1765200000001 implements MigrationInterface {
  name = 'AddRetentionIndexesForJournalAndSweeps1765200000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_contact_journal_at" ON "contact_journal" ("at")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_segment_sweeps_ended_queued" ON "segment_sweeps" ("queued_at") WHERE status IN ('succeeded', 'failed', 'skipped')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_segment_sweeps_ended_queued"`);
    await queryRunner.query(`DROP INDEX "IDX_contact_journal_at"`);
  }
}
