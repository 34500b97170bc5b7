import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A contact's unfinished runs without reading its history: the settlement check of a guarded no-op
 * (src/actions/settle-in-transaction.ts) runs for every such event, and the runner lists the same
 * runs (unfinishedUpTo). Only unfinished rows are in it, so a not-matched run costs it nothing.
 */
export class AddRunsContactUnfinishedIndex1764800000001 implements MigrationInterface {
  name = 'AddRunsContactUnfinishedIndex1764800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_runs_contact_unfinished" ON "runs" ("contact_id", "created_at") WHERE status IN ('pending', 'running', 'waiting')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_runs_contact_unfinished"`);
  }
}
