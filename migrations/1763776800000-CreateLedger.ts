import { MigrationInterface, QueryRunner } from 'typeorm';

/** Inbox, runs ledger, action results, enrollments and webhook subscriptions. */
export class CreateLedger1763776800000 implements MigrationInterface {
  name = 'CreateLedger1763776800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "inbox_events" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "event_key" text NOT NULL,
      "type" text NOT NULL,
      "payload" jsonb NOT NULL,
      "status" text NOT NULL DEFAULT 'pending',
      "contact_id" text,
      "error" text,
      "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "processed_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_inbox_events" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "UQ_inbox_events_event_key" ON "inbox_events" ("event_key")`);
    await q.query(
      `CREATE INDEX "IDX_inbox_events_pending" ON "inbox_events" ("received_at") WHERE status = 'pending'`,
    );

    await q.query(`CREATE TABLE "webhook_subscriptions" (
      "id" text NOT NULL,
      "crm_base_url" text NOT NULL,
      "url" text NOT NULL,
      "events" text array NOT NULL,
      "secret" text NOT NULL,
      "active" boolean NOT NULL DEFAULT true,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_webhook_subscriptions" PRIMARY KEY ("id"))`);

    await q.query(`CREATE TABLE "runs" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "trigger_key" text NOT NULL,
      "inbox_event_id" uuid,
      "rule_id" text NOT NULL,
      "rule_version" text NOT NULL,
      "rule_set_version" text NOT NULL,
      "contact_id" text NOT NULL,
      "status" text NOT NULL,
      "reason" text,
      "mode" text NOT NULL DEFAULT 'live',
      "trace" jsonb NOT NULL,
      "actions" jsonb NOT NULL,
      "contact_snapshot" jsonb,
      "correlation_id" text,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "finished_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_runs" PRIMARY KEY ("id"),
      CONSTRAINT "FK_runs_inbox_event" FOREIGN KEY ("inbox_event_id") REFERENCES "inbox_events"("id") ON DELETE SET NULL)`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_runs_trigger_rule_contact" ON "runs" ("trigger_key", "rule_id", "contact_id")`,
    );
    await q.query(`CREATE INDEX "IDX_runs_contact_created" ON "runs" ("contact_id", "created_at")`);
    await q.query(`CREATE INDEX "IDX_runs_rule_created" ON "runs" ("rule_id", "created_at")`);
    await q.query(
      `CREATE INDEX "IDX_runs_unfinished" ON "runs" ("updated_at") WHERE status IN ('pending', 'running')`,
    );

    await q.query(`CREATE TABLE "action_results" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "run_id" uuid NOT NULL,
      "action_index" integer NOT NULL,
      "action" jsonb NOT NULL,
      "status" text NOT NULL DEFAULT 'pending',
      "reason" text,
      "error_code" text,
      "error_message" text,
      "http_status" integer,
      "request_id" text,
      "attempts" integer NOT NULL DEFAULT 0,
      "started_at" TIMESTAMP WITH TIME ZONE,
      "finished_at" TIMESTAMP WITH TIME ZONE,
      "duration_ms" integer,
      CONSTRAINT "PK_action_results" PRIMARY KEY ("id"),
      CONSTRAINT "FK_action_results_run" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE)`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_action_results_run_index" ON "action_results" ("run_id", "action_index")`,
    );
    await q.query(`CREATE INDEX "IDX_action_results_status" ON "action_results" ("status")`);

    await q.query(`CREATE TABLE "enrollments" (
      "rule_id" text NOT NULL,
      "contact_id" text NOT NULL,
      "last_run_id" uuid NOT NULL,
      "last_fired_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "fire_count" integer NOT NULL DEFAULT 1,
      CONSTRAINT "PK_enrollments" PRIMARY KEY ("rule_id", "contact_id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "enrollments"`);
    await q.query(`DROP TABLE "action_results"`);
    await q.query(`DROP TABLE "runs"`);
    await q.query(`DROP TABLE "webhook_subscriptions"`);
    await q.query(`DROP TABLE "inbox_events"`);
  }
}
