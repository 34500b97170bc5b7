import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event path's look-ups that no partition key can narrow (a contact's open runs, of any day)
 * as PL/pgSQL functions whose plans are generic and cached per connection
 * (`plan_cache_mode = force_generic_plan`). As plain statements Postgres planned them against
 * every daily partition at every execution: with a month kept (34 children per table) 8-14 ms of
 * planning for 0.1-0.4 ms of execution, on every event (docs/BENCHMARKS.md, "Round 4, session 8").
 * Cached, they are planned once per connection and again only when a day is created or dropped;
 * run-time pruning still narrows what a parameter names (an event's or a run's day).
 *
 * The callers: src/persistence/ledger/run-goals.repository.ts (runs_endable_by_event),
 * runs.repository.ts (runs_unfinished_up_to, runs_due_waiting: a wake reads its run's trigger,
 * whose day the planner cannot know), action-results.repository.ts
 * (runs_recent_successes), settlement-state.repository.ts (contacts_settlement_state). A change
 * to one of them is a new migration that replaces the function.
 */
export class LedgerLookupsPlannedOnce1796010000000 implements MigrationInterface {
  name = 'LedgerLookupsPlannedOnce1796010000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of FUNCTIONS) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION IF EXISTS contacts_settlement_state(text[], uuid[])`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS runs_recent_successes(text[], text[], bigint)`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS runs_due_waiting(uuid, int, timestamptz)`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS runs_unfinished_up_to(text, uuid)`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS runs_endable_by_event(text[])`);
  }
}

/** A run as the runner and the event path read it (RunRow), with its trigger's payload. */
const RUN_ROW_TYPE = `id uuid, rule_id text, contact_id text, status text, correlation_id text,
  contact_snapshot jsonb, priority text, timing jsonb, timeline jsonb, event_payload jsonb, replay_of text`;

const RUN_ROW = `r.id, r.rule_id, r.contact_id, r.status, r.correlation_id, r.contact_snapshot, r.priority,
  r.timing, r.timeline, e.payload,
  CASE WHEN e.event_key LIKE 'replay:safe:%' THEN 'event:' || split_part(e.event_key, ':', 3) END`;

const OF_TRIGGER = `LEFT JOIN inbox_events e ON e.id = r.inbox_event_id
  AND e.event_at >= ledger_day_from(r.inbox_event_id) AND e.event_at < ledger_day_to(r.inbox_event_id)`;

/** Every function: read-only, generic plan, column names never taken for the OUT parameters'. */
const planned = (signature: string, returns: string, body: string) => `
  CREATE OR REPLACE FUNCTION ${signature} RETURNS ${returns}
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $fn$
  #variable_conflict use_column
  BEGIN
    RETURN QUERY ${body};
  END $fn$`;

const FUNCTIONS = [
  // The runs a later event about these contacts may end or convert: waiting, or in a goal window.
  planned(
    'runs_endable_by_event(contact_ids text[])',
    `TABLE (${RUN_ROW_TYPE})`,
    `SELECT ${RUN_ROW} FROM runs r ${OF_TRIGGER}
      WHERE r.contact_id = ANY(contact_ids)
        AND (r.status = 'waiting' OR (r.goal_until > now() AND r.goal_reached_at IS NULL))
      ORDER BY r.created_at`,
  ),
  // A contact's unfinished runs up to one of them: trigger order, then rule priority (insertion) order.
  planned(
    'runs_unfinished_up_to(contact text, up_to uuid)',
    `TABLE (${RUN_ROW_TYPE})`,
    `SELECT ${RUN_ROW} FROM runs r ${OF_TRIGGER}
      WHERE r.contact_id = contact AND r.status IN ('pending', 'running')
        AND r.created_at <= (SELECT u.created_at FROM runs u WHERE u.id = up_to
                               AND u.trigger_at >= ledger_day_from(up_to) AND u.trigger_at < ledger_day_to(up_to))
      ORDER BY r.created_at, r.seq`,
  ),
  // A waiting run whose time has come at the engine's `engine_now` (its wake job may fire a moment early).
  planned(
    'runs_due_waiting(run uuid, tolerance_ms int, engine_now timestamptz)',
    `TABLE (${RUN_ROW_TYPE})`,
    `SELECT ${RUN_ROW} FROM runs r ${OF_TRIGGER}
      WHERE r.id = run AND r.trigger_at >= ledger_day_from(run) AND r.trigger_at < ledger_day_to(run)
        AND r.status = 'waiting' AND r.waiting_until <= engine_now + (tolerance_ms * interval '1 millisecond')`,
  ),
  // The (rule, contact) pairs whose own write succeeded within the window (loop protection).
  planned(
    'runs_recent_successes(rule_ids text[], contact_ids text[], window_ms bigint)',
    'TABLE (rule_id text, contact_id text)',
    `SELECT p.rule_id, p.contact_id FROM unnest(rule_ids, contact_ids) AS p(rule_id, contact_id)
      WHERE EXISTS (SELECT 1 FROM action_results a JOIN runs r ON r.id = a.run_id AND r.trigger_at = a.run_trigger_at
                     WHERE r.rule_id = p.rule_id AND r.contact_id = p.contact_id AND a.status = 'succeeded'
                       AND a.finished_at > now() - (window_ms * interval '1 millisecond'))`,
  ),
  // Settlement's read: per contact whether it is quiet and its mirror row; per event its payload.
  planned(
    'contacts_settlement_state(contact_ids text[], event_ids uuid[])',
    'TABLE (kind text, id text, quiet boolean, mirrored jsonb, event_payload jsonb)',
    `SELECT 'contact'::text, c.id,
            NOT EXISTS (SELECT 1 FROM runs r
                         WHERE r.contact_id = c.id AND r.status IN ('pending', 'running', 'waiting'))
            AND NOT EXISTS (SELECT 1 FROM contact_leases l WHERE l.contact_id = c.id AND l.expires_at >= now()),
            (SELECT m.raw FROM contact_mirror m WHERE m.id = c.id),
            NULL::jsonb
       FROM unnest(contact_ids) AS c(id)
     UNION ALL
     SELECT 'event'::text, e.id::text, NULL::boolean, NULL::jsonb, e.payload FROM inbox_events e
      WHERE e.id = ANY(event_ids) AND e.event_at >= ledger_days_from(event_ids) AND e.event_at < ledger_days_to(event_ids)`,
  ),
];
