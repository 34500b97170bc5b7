import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk runs (issue 34, goal 5): a rule's backfill on activation, or a manual run for a list of
 * contacts or a segment, previewed and confirmed before any run is created. One open backfill per
 * rule version (partial unique index): every process that loads the version tries, one wins.
 */
export class CreateBulkRuns1795912926339 implements MigrationInterface {
  name = 'CreateBulkRuns1795912926339';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "bulk_runs" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "rule_id" text NOT NULL,
        "rule_version" text NOT NULL,
        "rules_commit" text,
        "source" text NOT NULL,
        "source_detail" text,
        "state" text NOT NULL DEFAULT 'preparing',
        "contact_ids" text array NOT NULL DEFAULT '{}',
        "forecast" jsonb,
        "evaluated" integer NOT NULL DEFAULT 0,
        "runs_created" integer NOT NULL DEFAULT 0,
        "created_by" text NOT NULL,
        "decided_by" text,
        "detail" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_bulk_runs" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_bulk_runs_source" CHECK ("source" IN ('backfill', 'list', 'segment')),
        CONSTRAINT "CHK_bulk_runs_state" CHECK ("state" IN ('preparing', 'pending_confirmation', 'running', 'cancelled', 'done', 'failed'))
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_bulk_runs_backfill_version" ON "bulk_runs" ("rule_id", "rule_version") WHERE source = 'backfill'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_bulk_runs_rule_created" ON "bulk_runs" ("rule_id", "created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "bulk_runs"`);
  }
}
