import { MigrationInterface, QueryRunner } from 'typeorm';

/** Contact mirror (+ tombstones, sync state), per-rule schedule state, memberships and sweeps. */
export class CreateSegments1763780000000 implements MigrationInterface {
  name = 'CreateSegments1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "contact_mirror" (
      "id" text NOT NULL,
      "name" text NOT NULL,
      "phone" text NOT NULL,
      "email" text,
      "avatar" text,
      "notes" text,
      "status" text NOT NULL,
      "is_blocked" boolean NOT NULL,
      "source_method" text NOT NULL,
      "assignee_id" text,
      "stage_id" text,
      "tag_ids" text array NOT NULL DEFAULT '{}',
      "tags" jsonb NOT NULL DEFAULT '[]',
      "custom_fields" jsonb NOT NULL DEFAULT '{}',
      "country" text,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "last_interaction_at" TIMESTAMP WITH TIME ZONE,
      "raw" jsonb NOT NULL,
      "synced_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "sync_generation" integer NOT NULL DEFAULT 0,
      CONSTRAINT "PK_contact_mirror" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_contact_mirror_tag_ids" ON "contact_mirror" USING gin ("tag_ids")`);
    await q.query(`CREATE INDEX "IDX_contact_mirror_created_at" ON "contact_mirror" ("created_at")`);

    await q.query(`CREATE TABLE "contact_mirror_tombstones" (
      "id" text NOT NULL,
      "deleted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_contact_mirror_tombstones" PRIMARY KEY ("id"))`);

    await q.query(`CREATE TABLE "contact_mirror_state" (
      "id" text NOT NULL,
      "full_sync_page" integer,
      "full_sync_generation" integer NOT NULL DEFAULT 0,
      "full_sync_started_at" TIMESTAMP WITH TIME ZONE,
      "full_sync_total" integer,
      "full_sync_newest_created_at" TIMESTAMP WITH TIME ZONE,
      "last_full_sync_at" TIMESTAMP WITH TIME ZONE,
      "watermark_created_at" TIMESTAMP WITH TIME ZONE,
      "last_incremental_at" TIMESTAMP WITH TIME ZONE,
      "last_event_at" TIMESTAMP WITH TIME ZONE,
      "list_calls" bigint NOT NULL DEFAULT 0,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_contact_mirror_state" PRIMARY KEY ("id"))`);

    await q.query(`CREATE TABLE "segment_rule_state" (
      "rule_id" text NOT NULL,
      "cron" text NOT NULL,
      "timezone" text,
      "registered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "last_tick_at" TIMESTAMP WITH TIME ZONE,
      "synced_segment_name" text,
      "synced_segment_at" TIMESTAMP WITH TIME ZONE,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_segment_rule_state" PRIMARY KEY ("rule_id"))`);

    await q.query(`CREATE TABLE "segment_memberships" (
      "rule_id" text NOT NULL,
      "contact_id" text NOT NULL,
      "entered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "entered_sweep_id" uuid,
      CONSTRAINT "PK_segment_memberships" PRIMARY KEY ("rule_id", "contact_id"))`);

    await q.query(`CREATE TABLE "segment_sweeps" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "rule_id" text NOT NULL,
      "tick_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "reason" text NOT NULL,
      "status" text NOT NULL DEFAULT 'queued',
      "detail" text,
      "phase" text,
      "pages_done" integer NOT NULL DEFAULT 0,
      "pages_total" integer,
      "contacts_evaluated" integer NOT NULL DEFAULT 0,
      "members" integer,
      "entered" integer NOT NULL DEFAULT 0,
      "left" integer NOT NULL DEFAULT 0,
      "actions_queued" integer NOT NULL DEFAULT 0,
      "calls_remaining" integer,
      "eta_ms" bigint,
      "evaluation_ms" integer,
      "queued_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "started_at" TIMESTAMP WITH TIME ZONE,
      "finished_at" TIMESTAMP WITH TIME ZONE,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_segment_sweeps" PRIMARY KEY ("id"))`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_segment_sweeps_rule_tick" ON "segment_sweeps" ("rule_id", "tick_at")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "segment_sweeps"`);
    await q.query(`DROP TABLE "segment_memberships"`);
    await q.query(`DROP TABLE "segment_rule_state"`);
    await q.query(`DROP TABLE "contact_mirror_state"`);
    await q.query(`DROP TABLE "contact_mirror_tombstones"`);
    await q.query(`DROP TABLE "contact_mirror"`);
  }
}
