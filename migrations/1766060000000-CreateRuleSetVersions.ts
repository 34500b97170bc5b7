import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deployed rule-set versions (issue 31): one row per commit fetched from git (or per content of a
 * RULES_DIR), with its files, its validation report and what became of it. At most one row is
 * `activated` and at most one is pinned (partial unique indexes): every process loads that row.
 * The audit table says who did what (fetch, activate, refuse, rollback, pin, unpin).
 */
export class CreateRuleSetVersions1766060000000 implements MigrationInterface {
  name = 'CreateRuleSetVersions1766060000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "rule_set_versions" (
      "id" bigserial NOT NULL,
      "commit" text NOT NULL,
      "source" text NOT NULL,
      "author" text,
      "message" text,
      "files" jsonb NOT NULL,
      "report" jsonb NOT NULL DEFAULT '[]',
      "status" text NOT NULL,
      "rule_set_version" text,
      "activated_by" text,
      "activated_at" TIMESTAMP WITH TIME ZONE,
      "pinned" boolean NOT NULL DEFAULT false,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_rule_set_versions" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "UQ_rule_set_versions_commit" ON "rule_set_versions" ("commit")`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_rule_set_versions_active" ON "rule_set_versions" ("status") WHERE status = 'activated'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_rule_set_versions_pinned" ON "rule_set_versions" ("pinned") WHERE pinned`,
    );
    await q.query(`CREATE TABLE "rule_set_deploy_audit" (
      "id" bigserial NOT NULL,
      "action" text NOT NULL,
      "commit" text,
      "actor" text NOT NULL,
      "note" text,
      "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_rule_set_deploy_audit" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_rule_set_deploy_audit_at" ON "rule_set_deploy_audit" ("at")`);
    await q.query(`ALTER TABLE "runs" ADD "rules_commit" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "runs" DROP COLUMN "rules_commit"`);
    await q.query(`DROP TABLE "rule_set_deploy_audit"`);
    await q.query(`DROP TABLE "rule_set_versions"`);
  }
}
