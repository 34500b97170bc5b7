import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator console's tables: per-rule controls (pause, forced shadow) with their audit log,
 * and the contact journal (what the engine saw or did for a contact that no other table keeps).
 */
export class CreateConsoleTables1764400000000 implements MigrationInterface {
  name = 'CreateConsoleTables1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "rule_controls" (
      "rule_id" text NOT NULL,
      "paused" boolean NOT NULL DEFAULT false,
      "shadow" boolean NOT NULL DEFAULT false,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "updated_by" text NOT NULL,
      CONSTRAINT "PK_rule_controls" PRIMARY KEY ("rule_id"))`);

    await q.query(`CREATE TABLE "rule_control_audit" (
      "id" bigserial NOT NULL,
      "rule_id" text NOT NULL,
      "change" text NOT NULL,
      "actor" text NOT NULL,
      "note" text,
      "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_rule_control_audit" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_rule_control_audit_at" ON "rule_control_audit" ("at")`);

    await q.query(`CREATE TABLE "contact_journal" (
      "id" bigserial NOT NULL,
      "contact_id" text NOT NULL,
      "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "kind" text NOT NULL,
      "detail" jsonb NOT NULL DEFAULT '{}',
      CONSTRAINT "PK_contact_journal" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_contact_journal_contact_at" ON "contact_journal" ("contact_id", "at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "contact_journal"`);
    await q.query(`DROP TABLE "rule_control_audit"`);
    await q.query(`DROP TABLE "rule_controls"`);
  }
}
