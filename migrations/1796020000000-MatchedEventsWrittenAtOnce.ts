import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The write of a batch of matched events (src/persistence/ledger/matched-event-writes.repository.ts)
 * as a PL/pgSQL function with a cached generic plan: the claim of the events, their runs and the
 * runs' action rows, one statement of data-modifying CTEs. Sent as text, Postgres parsed and
 * planned that statement at every batch: 0.3 + 1.4 ms of 8.6 per batch under load, 0.7 of 1.2 ms
 * for one event (docs/BENCHMARKS.md, "Round 4, session 9"). Cached, it is planned once per
 * connection; run-time pruning narrows the claim to the events' days.
 *
 * The three parts are those of InboxEventsRepository.claimUnmatched, RunsRepository.insertMany and
 * ActionResultsRepository.insertForRuns (the transaction's path, which stays), as they stood here.
 * test/persistence/ledger/matched-events-at-once.e2e-spec.ts compares what this writes with that
 * path, column by column. A change to the runs' or action rows' columns is a new migration that
 * replaces this function.
 */
export class MatchedEventsWrittenAtOnce1796020000000 implements MigrationInterface {
  name = 'MatchedEventsWrittenAtOnce1796020000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(WRITE_MATCHED_EVENTS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION IF EXISTS ledger_write_matched_events(uuid[], jsonb, jsonb, jsonb)`,
    );
  }
}

const WRITE_MATCHED_EVENTS = `
  CREATE OR REPLACE FUNCTION ledger_write_matched_events(
    p_ids uuid[], p_decisions jsonb, p_runs jsonb, p_actions jsonb)
  RETURNS TABLE (kind text, written uuid)
  LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $fn$
  BEGIN
    RETURN QUERY
    WITH claimed AS (
      UPDATE inbox_events e SET status = 'processed', processed_at = now(),
             unmatched = NULLIF(p_decisions -> e.id::text, 'null'::jsonb)
       WHERE e.id IN (SELECT unnest(p_ids) ORDER BY 1)
         AND e.event_at >= ledger_days_from(p_ids) AND e.event_at < ledger_days_to(p_ids)
         AND e.status = 'pending'
      RETURNING e.id),
    inserted AS (
      INSERT INTO runs (id, trigger_key, trigger_at, inbox_event_id, rule_id, rule_version,
                        rule_set_version, contact_id, status, reason, mode, priority, trace, actions,
                        contact_snapshot, correlation_id, timing, rules_commit, finished_at)
      SELECT x."id", x."triggerKey", x."triggerAt", x."inboxEventId", x."ruleId", x."ruleVersion", x."ruleSetVersion",
             x."contactId", x."status", x."reason", x."mode", x."priority", x."trace", x."actions",
             x."contactSnapshot", x."correlationId", x."timing", x."rulesCommit",
             CASE WHEN x."status" IN ('pending','running') THEN NULL ELSE now() END
        FROM ROWS FROM (jsonb_to_recordset(p_runs) AS ("id" uuid, "triggerKey" text, "triggerAt" timestamptz, "inboxEventId" uuid,
             "ruleId" text, "ruleVersion" text, "ruleSetVersion" text, "contactId" text, "status" text,
             "reason" text, "mode" text, "priority" text, "trace" jsonb, "actions" jsonb, "contactSnapshot" jsonb,
             "correlationId" text, "timing" jsonb, "rulesCommit" text)) WITH ORDINALITY
          AS x("id", "triggerKey", "triggerAt", "inboxEventId", "ruleId", "ruleVersion", "ruleSetVersion", "contactId",
               "status", "reason", "mode", "priority", "trace", "actions", "contactSnapshot", "correlationId",
               "timing", "rulesCommit", "position")
       WHERE x."inboxEventId" IN (SELECT c.id FROM claimed c)
       ORDER BY x."position"
      ON CONFLICT DO NOTHING RETURNING runs.id),
    acted AS (
      INSERT INTO action_results (id, run_id, run_trigger_at, action_index, action, status, reason, error_message, finished_at)
      SELECT ledger_uuid(r."triggerAt"), r."runId", r."triggerAt", (a.ordinality - 1)::int, a.value,
             CASE WHEN r.skips IS NULL THEN 'pending' ELSE 'skipped' END,
             r.skips -> (a.ordinality - 1)::int ->> 'reason', r.skips -> (a.ordinality - 1)::int ->> 'detail',
             CASE WHEN r.skips IS NOT NULL THEN now() END
        FROM jsonb_to_recordset(p_actions) AS r("runId" uuid, "triggerAt" timestamptz, actions jsonb, skips jsonb)
       CROSS JOIN LATERAL jsonb_array_elements(r.actions) WITH ORDINALITY AS a
       WHERE r."runId" IN (SELECT i.id FROM inserted i))
    SELECT 'event'::text, c.id FROM claimed c
    UNION ALL
    SELECT 'run'::text, i.id FROM inserted i;
  END $fn$`;
