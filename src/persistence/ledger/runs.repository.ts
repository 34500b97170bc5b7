// Every statement on `runs`. Idempotency lives in its unique key (trigger, rule, contact, and the
// trigger's time, the partition key). Inserts name no conflict target: the legacy partition's key
// without the time (migration 1795990000000) arbitrates too, for a trigger from before it.
import type { Queryable } from '../sql/queryable';
import { affectedRows, returnedRows } from '../sql/returned-rows';
import type { RunStatus } from './run.entity';
import type { TimelineEntry } from './run-timeline-entry';
import type { QueueableRun, RunInsert, RunRow } from './run-rows';
import { GOAL_UNTIL, RunGoals } from './run-goals.repository';
import { RunViews } from './run-views.repository';
import { sameDay } from '../partitions/ledger-id';

const QUEUEABLE = `id, contact_id AS "contactId", correlation_id AS "correlationId", priority,
                   waiting_until AS "waitingUntil"`;
// replay_of: the original trigger of an operator's replay made without `force` (key format:
// InboxEventsRepository.insertReplayCopy), whose sent messages the runner does not send again.

/**
 * Runs from a JSON array (`param`, $1 by default) of RunInsert rows, inserted in the array's order:
 * `seq` (identity) is what orders one trigger's runs (same created_at) for the runner, so the order
 * is stated, not left to the plan. The caller adds its filter (over `x."inboxEventId"` and the
 * other columns) and conflict clause.
 */
export const insertRunsFromJsonSql = (
  where = '',
  param = '$1',
) => `INSERT INTO runs (id, trigger_key, trigger_at, inbox_event_id, rule_id, rule_version,
                         rule_set_version, contact_id, status, reason, mode, priority, trace, actions,
                         contact_snapshot, correlation_id, timing, rules_commit, finished_at)
       SELECT x."id", x."triggerKey", x."triggerAt", x."inboxEventId", x."ruleId", x."ruleVersion", x."ruleSetVersion",
              x."contactId", x."status", x."reason", x."mode", x."priority", x."trace", x."actions",
              x."contactSnapshot", x."correlationId", x."timing", x."rulesCommit",
              CASE WHEN x."status" IN ('pending','running') THEN NULL ELSE now() END
         FROM ROWS FROM (jsonb_to_recordset(${param}::jsonb) AS ("id" uuid, "triggerKey" text, "triggerAt" timestamptz, "inboxEventId" uuid,
              "ruleId" text, "ruleVersion" text, "ruleSetVersion" text, "contactId" text, "status" text,
              "reason" text, "mode" text, "priority" text, "trace" jsonb, "actions" jsonb, "contactSnapshot" jsonb,
              "correlationId" text, "timing" jsonb, "rulesCommit" text)) WITH ORDINALITY
           AS x("id", "triggerKey", "triggerAt", "inboxEventId", "ruleId", "ruleVersion", "ruleSetVersion", "contactId",
                "status", "reason", "mode", "priority", "trace", "actions", "contactSnapshot", "correlationId",
                "timing", "rulesCommit", "position")
        ${where}
        ORDER BY x."position"`;

/** A waiting run has its delayed job; a job a little early on the database's clock still wakes it. */
const WAKE_TOLERANCE_MS = 1000;

/** The writes and the runner's reads, with the views and the goal's statements as parts. */
export class RunsRepository {
  /** The read-only views and counts (console, admin API, a limited rule's slots). */
  readonly views: RunViews;
  /** The goal's enrollment and conversions. */
  readonly goals: RunGoals;

  constructor(private readonly db: Queryable) {
    this.views = new RunViews(db);
    this.goals = new RunGoals(db);
  }

  /** The same repository over a transaction or a dedicated connection. */
  in(db: Queryable): RunsRepository {
    return new RunsRepository(db);
  }

  /** False when the (trigger, rule, contact) was seen before: nothing was written. */
  async insert(run: RunInsert): Promise<boolean> {
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO runs (id, trigger_key, inbox_event_id, rule_id, rule_version, rule_set_version, contact_id,
                         status, reason, mode, priority, trace, actions, contact_snapshot, correlation_id, timing,
                         rules_commit, trigger_at, finished_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,
               CASE WHEN $8 IN ('pending','running') THEN NULL ELSE now() END)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        run.id,
        run.triggerKey,
        run.inboxEventId,
        run.ruleId,
        run.ruleVersion,
        run.ruleSetVersion,
        run.contactId,
        run.status,
        run.reason,
        run.mode,
        run.priority,
        JSON.stringify(run.trace),
        JSON.stringify(run.actions),
        run.contactSnapshot ? JSON.stringify(run.contactSnapshot) : null,
        run.correlationId,
        run.timing ? JSON.stringify(run.timing) : null,
        run.rulesCommit ?? null,
        run.triggerAt,
      ],
    );
    return inserted.length > 0;
  }

  /**
   * Several runs in one statement (the not-matched runs of one event, or every matched run of a
   * batch of events: one round trip however many). Each row keeps its status, reason and timing;
   * finished_at is set unless it is pending. Returns the ids written; a (trigger, rule, contact)
   * seen before writes nothing (its caller records it suppressed, as `insert` does).
   */
  async insertMany(runs: readonly RunInsert[]): Promise<Set<string>> {
    if (runs.length === 0) return new Set();
    const inserted: { id: string }[] = await this.db.query(
      `${insertRunsFromJsonSql()} ON CONFLICT DO NOTHING RETURNING id`,
      [JSON.stringify(runs)],
    );
    return new Set(inserted.map((r) => r.id));
  }

  /**
   * Holds a trigger for the caller's transaction (a manual run's, whose time is not derived from
   * anything a second submit carries): a second holder waits until the first commits.
   */
  async lockTrigger(triggerKey: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`trigger:${triggerKey}`]);
  }

  /** Unfinished runs of a contact up to the given run: trigger order, then rule priority (insertion) order. */
  unfinishedUpTo(contactId: string, runId: string): Promise<RunRow[]> {
    // RunRow's columns, from a function with a cached plan (migration 1796010000000): unfinished
    // runs may be of any day, and planning against every partition cost more than the read.
    return this.db.query(`SELECT * FROM runs_unfinished_up_to($1, $2::uuid)`, [contactId, runId]);
  }

  /**
   * The unfinished runs of one trigger (an event processed by a worker that then died): pending,
   * running, and waiting ones (their wake job may not have been added yet).
   */
  unfinishedOfTrigger(triggerKey: string): Promise<QueueableRun[]> {
    return this.db.query(
      `SELECT ${QUEUEABLE} FROM runs WHERE trigger_key = $1 AND status IN ('pending', 'running', 'waiting')
        ORDER BY created_at, seq`,
      [triggerKey],
    );
  }

  /**
   * pending → running as the runner starts it (running stays running). A run finished meanwhile is
   * left as it is: the runner may mark a run it has not yet found unfinished (action-runner.service.ts).
   */
  async markRunning(runId: string): Promise<void> {
    await this.db.query(
      `UPDATE runs SET status = 'running', updated_at = now()
        WHERE id = $1 AND ${sameDay('trigger_at', '$1')} AND status IN ('pending', 'running')`,
      [runId],
    );
  }

  /** A succeeded run of a rule with a goal stays enrolled for conversion for its plan's window. */
  async finish(runId: string, status: RunStatus): Promise<void> {
    await this.db.query(
      `UPDATE runs SET status = $2, updated_at = now(), finished_at = now(), goal_until = ${GOAL_UNTIL}
        WHERE id = $1 AND ${sameDay('trigger_at', '$1')}`,
      [runId, status],
    );
  }

  /**
   * Unfinished runs with no progress for `staleAfterMs`, and waiting runs that long overdue at
   * `engineNow` (waiting_until is an engine time; updated_at is Postgres's): their job may be gone
   * (reconciler).
   */
  stale(staleAfterMs: number, limit: number, engineNow: Date): Promise<QueueableRun[]> {
    return this.db.query(
      `SELECT ${QUEUEABLE} FROM runs
        WHERE (status IN ('pending', 'running') AND updated_at < now() - ($1::int * interval '1 millisecond'))
           OR (status = 'waiting' AND waiting_until < $3::timestamptz - ($1::int * interval '1 millisecond'))
        ORDER BY created_at LIMIT $2`,
      [staleAfterMs, limit, engineNow],
    );
  }

  /** An uncertain run an operator resolved (sent or send again) back to pending; its job is ensured by the caller. */
  async reopenOne(runId: string): Promise<QueueableRun | undefined> {
    const rows = await this.db.query(
      `UPDATE runs SET status = 'pending', finished_at = NULL, updated_at = now() WHERE id = $1 AND ${sameDay('trigger_at', '$1')} RETURNING ${QUEUEABLE}`,
      [runId],
    );
    return returnedRows<QueueableRun>(rows)[0];
  }

  /**
   * Finished runs of the given statuses (all, or those of `runIds`) back to pending, for
   * retry-dead; never those of `excluded` (runs retry-dead refuses).
   */
  async reopen(
    statuses: string[],
    runIds: string[] | null,
    excluded: string[] = [],
  ): Promise<QueueableRun[]> {
    return returnedRows<QueueableRun>(
      await this.db.query(
        `UPDATE runs SET status = 'pending', finished_at = NULL, updated_at = now()
          WHERE status = ANY($1) AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[])) AND id <> ALL($3::uuid[])
          RETURNING ${QUEUEABLE}`,
        [statuses, runIds, excluded],
      ),
    );
  }

  /**
   * Retention: deletes up to `limit` finished runs created before `cutoff` (their action results go
   * with them, ON DELETE CASCADE), and with them the contact snapshots they hold. Runs an operator
   * may still act on (pending, running, dead, uncertain) are kept whatever their age.
   */
  async deleteFinishedBefore(cutoff: Date, limit: number): Promise<number> {
    const result = await this.db.query(
      // With the partition key, each id is looked up in its own day only.
      `DELETE FROM runs WHERE (id, trigger_at) IN (
         SELECT id, trigger_at FROM runs
          WHERE created_at < $1 AND status IN ('succeeded', 'failed', 'not_matched', 'suppressed', 'cancelled')
          LIMIT $2)`,
      [cutoff, limit],
    );
    return affectedRows(result);
  }

  // --- waits, windows and limits (src/pipeline/execution/timing) ---

  /** Records a step of the run's timeline. */
  async record(runId: string, entry: TimelineEntry): Promise<void> {
    await this.db.query(
      `UPDATE runs SET timeline = timeline || $2::jsonb, updated_at = now() WHERE id = $1 AND ${sameDay('trigger_at', '$1')}`,
      [runId, JSON.stringify([entry])],
    );
  }

  /** The run sleeps until `until`; its delayed job wakes it. */
  async startWaiting(runId: string, until: Date, entry: TimelineEntry): Promise<void> {
    await this.db.query(
      `UPDATE runs SET status = 'waiting', waiting_until = $2, timeline = timeline || $3::jsonb, updated_at = now()
        WHERE id = $1 AND ${sameDay('trigger_at', '$1')}`,
      [runId, until, JSON.stringify([entry])],
    );
  }

  /**
   * The run if it waits and its time has come at `now`: the engine's clock, the one its wake job's
   * delay was computed from (the job may fire a moment early on it).
   */
  async dueWaiting(runId: string, now: Date): Promise<RunRow | undefined> {
    // RunRow's columns, from a function with a cached plan (migration 1796010000000): the trigger's
    // day is the run's own to know, so the planner saw every day of inbox_events at every wake.
    const [row] = await this.db.query(`SELECT * FROM runs_due_waiting($1::uuid, $2::int, $3::timestamptz)`, [
      runId,
      WAKE_TOLERANCE_MS,
      now,
    ]);
    return row;
  }

  /** Waiting -> pending, unless something cancelled it meanwhile; false then. */
  async resume(runId: string, entry: TimelineEntry): Promise<boolean> {
    return (
      returnedRows(
        await this.db.query(
          `UPDATE runs SET status = 'pending', waiting_until = NULL, timeline = timeline || $2::jsonb, updated_at = now()
            WHERE id = $1 AND ${sameDay('trigger_at', '$1')} AND status = 'waiting' RETURNING id`,
          [runId, JSON.stringify([entry])],
        ),
      ).length > 0
    );
  }

  /**
   * Ends a run before its remaining actions (`onlyWaiting`: only if it still waits, so a wake and a
   * cancelling event cannot both win). False when it was not in that state.
   */
  async cancel(runId: string, entry: TimelineEntry, onlyWaiting: boolean): Promise<boolean> {
    return (
      returnedRows(
        await this.db.query(
          `UPDATE runs SET status = 'cancelled', reason = $2, waiting_until = NULL, timeline = timeline || $3::jsonb,
                  updated_at = now(), finished_at = now()
            WHERE id = $1 AND ${sameDay('trigger_at', '$1')} AND status IN (${onlyWaiting ? `'waiting'` : `'waiting', 'pending', 'running'`})
            RETURNING id`,
          [runId, entry.reason ?? null, JSON.stringify([entry])],
        ),
      ).length > 0
    );
  }

  /** Waiting runs of one rule for these contacts (they left its segment). */
  async waitingOfRule(ruleId: string, contactIds: string[]): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM runs WHERE rule_id = $1 AND contact_id = ANY($2::text[]) AND status = 'waiting'`,
      [ruleId, contactIds],
    );
    return rows.map((r) => r.id);
  }
}
