// Every statement on `action_results`. (run, index) is unique: a retried job resumes after the
// last finished action instead of repeating it.
import type { Queryable, Transactional } from '../db/queryable';
import { returnedRows } from '../db/returned-rows';
import type { RuleAction } from '../rules/rule-types';
import type { ActionStatus, ActionTarget } from './action-result.entity';

export interface ActionRow {
  id: string;
  action_index: number;
  action: unknown;
  status: ActionStatus;
  target: ActionTarget | null;
  /** When the last attempt began (committed before the call). */
  started_at: Date | null;
}

export interface Failure {
  code: string;
  message: string;
  status: number | null;
  requestId: string | null;
}

export interface AttentionFilter {
  statuses: readonly string[];
  rule?: string;
  limit: number;
}

export interface ActionNeedingAttention {
  id: string;
  runId: string;
  index: number;
  ruleId: string;
  contactId: string;
  action: RuleAction;
  status: ActionStatus;
  errorCode: string | null;
  errorMessage: string | null;
  requestId: string | null;
  attempts: number;
  finishedAt: Date | null;
}

export interface ContactActionRow {
  runId: string;
  ruleId: string;
  index: number;
  action: RuleAction;
  status: ActionStatus;
  reason: string | null;
  errorCode: string | null;
  httpStatus: number | null;
  requestId: string | null;
  durationMs: number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export class ActionResultsRepository {
  constructor(private readonly db: Transactional) {}

  /** The same repository over a transaction (EntityManager) or the pool. */
  in(db: Transactional): ActionResultsRepository {
    return new ActionResultsRepository(db);
  }

  /**
   * `fn` in a transaction committed synchronously (the pool's default is asynchronous, see
   * src/db/data-source.ts); over the pool, its connection is held only for these statements.
   */
  private durably<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL synchronous_commit = on`);
      return fn(tx);
    });
  }

  // Read-only views for the operator console.

  /** Actions of the runs created since, by status. */
  async countsByStatusSince(since: Date): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.db.query(
      `SELECT a.status, count(*)::int AS n FROM action_results a JOIN runs r ON r.id = a.run_id
        WHERE r.created_at >= $1 GROUP BY a.status`,
      [since],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** Actions still to be executed, by their run's gateway priority: each is a CRM call ahead. */
  async unfinishedByPriority(): Promise<{ interactive: number; bulk: number }> {
    const rows: { priority: 'interactive' | 'bulk'; n: number }[] = await this.db.query(
      `SELECT r.priority, count(*)::int AS n FROM action_results a JOIN runs r ON r.id = a.run_id
        WHERE a.status IN ('pending', 'running') GROUP BY r.priority`,
    );
    const out = { interactive: 0, bulk: 0 };
    for (const r of rows) out[r.priority] = r.n;
    return out;
  }

  /** Actions that need an operator (dead, uncertain, failed), newest first. */
  needingAttention(f: AttentionFilter): Promise<ActionNeedingAttention[]> {
    return this.db.query(
      `SELECT a.id, a.run_id AS "runId", a.action_index AS "index", r.rule_id AS "ruleId", r.contact_id AS "contactId",
              a.action, a.status, a.error_code AS "errorCode", a.error_message AS "errorMessage",
              a.request_id AS "requestId", a.attempts, a.finished_at AS "finishedAt"
         FROM action_results a JOIN runs r ON r.id = a.run_id
        WHERE a.status = ANY($1) AND ($2::text IS NULL OR r.rule_id = $2)
        ORDER BY coalesce(a.finished_at, r.created_at) DESC LIMIT $3`,
      [f.statuses, f.rule ?? null, f.limit],
    );
  }

  async countsNeedingAttention(statuses: readonly string[]): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.db.query(
      `SELECT status, count(*)::int AS n FROM action_results WHERE status = ANY($1) GROUP BY status`,
      [statuses],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** Every action of the given runs, with its rule (contact timeline). */
  ofRuns(runIds: string[]): Promise<ContactActionRow[]> {
    return this.db.query(
      `SELECT a.run_id AS "runId", r.rule_id AS "ruleId", a.action_index AS "index", a.action, a.status, a.reason,
              a.error_code AS "errorCode", a.http_status AS "httpStatus", a.request_id AS "requestId",
              a.duration_ms AS "durationMs", a.started_at AS "startedAt", a.finished_at AS "finishedAt"
         FROM action_results a JOIN runs r ON r.id = a.run_id WHERE a.run_id = ANY($1::uuid[])`,
      [runIds],
    );
  }

  /**
   * One row per action of a new run, in one statement: pending for the runner; skipped
   * `shadow_mode` when nothing may act; or, for a run settled at creation, skipped with each
   * guard's reason and detail, as the runner's `skip` records them (reason, error_message, finished_at).
   */
  async insertForRun(
    runId: string,
    actions: readonly RuleAction[],
    how: 'pending' | 'shadow' | readonly { reason: string; detail: string }[],
  ): Promise<void> {
    if (actions.length === 0) return;
    const skips =
      how === 'pending'
        ? null
        : how === 'shadow'
          ? actions.map(() => ({ reason: 'shadow_mode', detail: null }))
          : how;
    await this.db.query(
      `INSERT INTO action_results (run_id, action_index, action, status, reason, error_message, finished_at)
       SELECT $1, (a.ordinality - 1)::int, a.value, CASE WHEN $3::jsonb IS NULL THEN 'pending' ELSE 'skipped' END,
              $3::jsonb -> (a.ordinality - 1)::int ->> 'reason', $3::jsonb -> (a.ordinality - 1)::int ->> 'detail',
              CASE WHEN $3::jsonb IS NOT NULL THEN now() END
         FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS a`,
      [runId, JSON.stringify(actions), skips ? JSON.stringify(skips) : null],
    );
  }

  ofRun(runId: string): Promise<ActionRow[]> {
    return this.db.query(
      `SELECT id, action_index, action, status, target, started_at FROM action_results WHERE run_id = $1 ORDER BY action_index`,
      [runId],
    );
  }

  /**
   * Synchronous commit, like success: after a crash the `running` mark is what says a call may
   * have reached the CRM, and when it began (at-most-once writes are looked up from then on).
   * Returns the start time.
   */
  markRunning(id: string): Promise<Date> {
    return this.durably(async (tx) => {
      const rows: { started_at: Date }[] = await tx.query(
        `UPDATE action_results SET status = 'running', attempts = attempts + 1, started_at = now() WHERE id = $1
         RETURNING started_at`,
        [id],
      );
      return returnedRows<{ started_at: Date }>(rows)[0].started_at;
    });
  }

  /** What the attempt aims at, durably, before the call (see ActionTarget). */
  setTarget(id: string, target: ActionTarget): Promise<void> {
    return this.durably(async (tx) => {
      await tx.query(`UPDATE action_results SET target = $2 WHERE id = $1`, [id, JSON.stringify(target)]);
    });
  }

  /** An operator's decision on an uncertain action; the run it belongs to, or undefined when it is not uncertain. */
  async resolveUncertain(
    id: string,
    resolution: 'sent' | 'send-again' | 'discard',
  ): Promise<{ runId: string } | undefined> {
    const [status, reason] =
      resolution === 'sent'
        ? ['succeeded', 'resolved_as_sent']
        : resolution === 'send-again'
          ? ['pending', null]
          : ['skipped', 'discarded'];
    const rows = await this.db.query(
      `UPDATE action_results SET status = $2, reason = $3, finished_at = CASE WHEN $2 = 'pending' THEN NULL ELSE now() END
        WHERE id = $1 AND status = 'uncertain' RETURNING run_id AS "runId"`,
      [id, status, reason],
    );
    const [row] = returnedRows<{ runId: string }>(rows);
    if (row && resolution !== 'discard')
      await this.db.query(
        `UPDATE action_results SET status = 'pending', reason = NULL, finished_at = NULL
          WHERE run_id = $1 AND status = 'skipped' AND reason = 'previous_action_uncertain'`,
        [row.runId],
      );
    return row;
  }

  async skip(id: string, reason: string, detail: string): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'skipped', reason = $2, error_message = $3, finished_at = now() WHERE id = $1`,
      [id, reason, detail],
    );
  }

  /**
   * Synchronous commit: once the CRM took the write, the ledger must not forget it (a forgotten
   * reaction or message would be sent again).
   */
  succeed(id: string, durationMs: number, requestId: string | null, reason: string | null = null) {
    return this.durably(async (tx) => {
      await tx.query(
        `UPDATE action_results SET status = 'succeeded', reason = $4, request_id = $3, duration_ms = $2, finished_at = now(),
                error_code = NULL, error_message = NULL, http_status = NULL WHERE id = $1`,
        [id, durationMs, requestId, reason],
      );
    });
  }

  /** `status` pending records a transient failure of an attempt; the job retries later. */
  async fail(id: string, status: ActionStatus, f: Failure, durationMs: number): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = $2, reason = $3, error_code = $3, error_message = $4, http_status = $5,
              request_id = $6, duration_ms = $7, finished_at = CASE WHEN $2 = 'pending' THEN NULL ELSE now() END
        WHERE id = $1`,
      [id, status, f.code, f.message.slice(0, 2000), f.status, f.requestId, durationMs],
    );
  }

  async skipRemaining(runId: string, afterIndex: number, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'skipped', reason = $3, finished_at = now()
        WHERE run_id = $1 AND action_index > $2 AND status IN ('pending', 'running')`,
      [runId, afterIndex, reason],
    );
  }

  /** Rows of reopened runs back to pending: those in `statuses` and those skipped behind them. */
  async reopen(runIds: string[], statuses: string[]): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'pending', finished_at = NULL
        WHERE run_id = ANY($1) AND (status = ANY($2) OR reason = 'previous_action_failed')`,
      [runIds, statuses],
    );
  }

  /** Whether the rule's own write on the contact succeeded within the window (loop protection). */
  async recentSuccess(ruleId: string, contactId: string, windowMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM action_results a JOIN runs r ON r.id = a.run_id
        WHERE r.rule_id = $1 AND r.contact_id = $2 AND a.status = 'succeeded'
          AND a.finished_at > now() - ($3::bigint * interval '1 millisecond') LIMIT 1`,
      [ruleId, contactId, windowMs],
    );
    return rows.length > 0;
  }

  /** Actions of one rule's runs on the given triggers (a sweep's), counted by status. */
  async countsByStatus(ruleId: string, triggerKeys: string[]): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.db.query(
      `SELECT a.status, count(*)::int AS n FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.trigger_key = ANY($1::text[]) AND r.rule_id = $2 GROUP BY a.status`,
      [triggerKeys, ruleId],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** The admin view of a run's actions, camelCase. */
  forRunView(runId: string): Promise<Record<string, unknown>[]> {
    return this.db.query(
      `SELECT action_index AS "index", action, status, reason, error_code AS "errorCode", error_message AS "errorMessage",
              http_status AS "httpStatus", request_id AS "requestId", attempts, started_at AS "startedAt",
              finished_at AS "finishedAt", duration_ms AS "durationMs"
         FROM action_results WHERE run_id = $1 ORDER BY action_index`,
      [runId],
    );
  }
}
