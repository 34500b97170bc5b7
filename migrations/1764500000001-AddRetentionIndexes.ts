import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Retention deletes by age: without these it would scan runs and inbox_events on every batch. */
export class AddRetentionIndexes1764500000001 implements MigrationInterface {
  name = 'AddRetentionIndexes1764500000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_runs_created" ON "runs" ("created_at")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_inbox_events_processed" ON "inbox_events" ("received_at") WHERE status = 'processed'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_inbox_events_processed"`);
    await queryRunner.query(`DROP INDEX "IDX_runs_created"`);
  }
}
