// Every statement on `action_results`. (run, index) is unique: a retried job resumes after the
// last finished action instead of repeating it.
import type { Transactional } from '../sql/queryable';
import { returnedRows } from '../sql/returned-rows';
import type { RuleAction } from '../../language/rules/format/rule-types';
import type { SnakeRow } from '../sql/snake-row';
import type { ActionResultEntity } from './action-result.entity';
import type { ActionStatus, ActionTarget } from '../../language/catalogue/action-result-terms';
import { ActionResultViews } from './action-result-views.repository';
import { sameDay, sameDays } from '../partitions/ledger-id';

export type {
  ActionNeedingAttention,
  AttentionFilter,
  ContactActionRow,
  RetryCandidate,
  RunActionView,
} from './action-result-views.repository';

/** The table's one row type, ActionResultEntity, as `SELECT *` returns it (its relation `run` is no column). */
export type ActionResultRow = SnakeRow<Omit<ActionResultEntity, 'run'>>;

/**
 * An action as the runner works it (ofRun). `started_at`: when the last attempt began (committed
 * before the call); `saved`: for http-request, what `save:` read from the answer (with its success);
 * `error_code`: the last failure's, kept when an operator's retry reopens the row.
 */
export type ActionRow = Pick<
  ActionResultRow,
  | 'id'
  | 'action_index'
  | 'action'
  | 'status'
  | 'target'
  | 'started_at'
  | 'saved'
  | 'error_code'
  | 'http_status'
  | 'attempts'
>;

export interface Failure {
  code: string;
  message: string;
  status: number | null;
  requestId: string | null;
}

/** The action rows of one new run: see insertForRun. */
export interface NewActionRows {
  runId: string;
  /** The run's trigger_at: its results live in its day (the partition key). */
  triggerAt: Date;
  actions: readonly RuleAction[];
  how: 'pending' | 'shadow' | readonly { reason: string; detail: string }[];
}

const SHADOW_SKIP = { reason: 'shadow_mode', detail: null };

/** The JSON parameter of insertActionRowsSql for these runs; null when none has an action. */
export function actionRowsParam(runs: readonly NewActionRows[]): string | null {
  const rows = runs
    .filter((r) => r.actions.length > 0)
    .map(({ runId, triggerAt, actions, how }) => ({
      runId,
      triggerAt,
      actions,
      skips: how === 'pending' ? null : how === 'shadow' ? actions.map(() => SHADOW_SKIP) : how,
    }));
  return rows.length ? JSON.stringify(rows) : null;
}

/**
 * The insert of action rows from `param` (actionRowsParam's JSON), with `where` over `r."runId"`:
 * a statement that also writes the runs (MatchedEventWrites) keeps only the runs it inserted.
 */
export function insertActionRowsSql(param: string, where = ''): string {
  return `INSERT INTO action_results (id, run_id, run_trigger_at, action_index, action, status, reason, error_message, finished_at)
       SELECT ledger_uuid(r."triggerAt"), r."runId", r."triggerAt", (a.ordinality - 1)::int, a.value, CASE WHEN r.skips IS NULL THEN 'pending' ELSE 'skipped' END,
              r.skips -> (a.ordinality - 1)::int ->> 'reason', r.skips -> (a.ordinality - 1)::int ->> 'detail',
              CASE WHEN r.skips IS NOT NULL THEN now() END
         FROM jsonb_to_recordset(${param}::jsonb) AS r("runId" uuid, "triggerAt" timestamptz, actions jsonb, skips jsonb)
        CROSS JOIN LATERAL jsonb_array_elements(r.actions) WITH ORDINALITY AS a ${where}`;
}

export interface RuleContact {
  ruleId: string;
  contactId: string;
}

export const ruleContactKey = (p: RuleContact): string => `${p.ruleId}\u0000${p.contactId}`;

// The durable marks (running, target, success) commit synchronously in one statement on a pool
// whose default is asynchronous (src/persistence/schema/data-source.ts): set_config(..., true)
// applies to the statement's own transaction, and Postgres reads synchronous_commit when it
// commits, after the statement ran. BEGIN; SET LOCAL ...; UPDATE; COMMIT took four round trips.
// test/persistence/ledger/synchronous-commit.e2e-spec.ts counts one WAL flush per mark.
const SYNC_COMMIT_FROM = `(SELECT set_config('synchronous_commit', 'on', true) AS commit_mode) sync`;
const SYNC_COMMIT_MODE = `sync.commit_mode`;

/** Throws unless every row returned says synchronous commit was on (no row: nothing written). */
function assertSynchronous(rows: readonly { commit_mode: string }[]): void {
  const mode = rows.find((r) => r.commit_mode !== 'on')?.commit_mode;
  if (mode !== undefined) throw new Error(`ledger write committed with synchronous_commit=${mode}`);
}

export class ActionResultsRepository {
  /** The read-only views (console, admin, retry, sweep reports, the messaging policy's caps). */
  readonly views: ActionResultViews;

  constructor(private readonly db: Transactional) {
    this.views = new ActionResultViews(db);
  }

  /** The same repository over a transaction (EntityManager) or the pool. */
  in(db: Transactional): ActionResultsRepository {
    return new ActionResultsRepository(db);
  }

  /**
   * One row per action of a new run: pending for the runner; skipped `shadow_mode` when nothing may
   * act; or, for a run settled at creation, skipped with each guard's reason and detail, as the
   * runner's `skip` records them (reason, error_message, finished_at).
   */
  insertForRun(
    runId: string,
    triggerAt: Date,
    actions: readonly RuleAction[],
    how: NewActionRows['how'],
  ): Promise<void> {
    return this.insertForRuns([{ runId, triggerAt, actions, how }]);
  }

  /** The action rows of several new runs (a batch of events), in one statement. */
  async insertForRuns(runs: readonly NewActionRows[]): Promise<void> {
    const rows = actionRowsParam(runs);
    if (rows) await this.db.query(insertActionRowsSql('$1'), [rows]);
  }

  ofRun(runId: string): Promise<ActionRow[]> {
    return this.db.query(
      `SELECT id, action_index, action, status, target, started_at, saved, error_code, http_status, attempts
         FROM action_results WHERE run_id = $1 AND ${sameDay('run_trigger_at', '$1')} ORDER BY action_index`,
      [runId],
    );
  }

  /**
   * The attempt's start. `durable` (the default) commits it synchronously, like success: after a
   * crash the `running` mark is what says a call may have reached the CRM, and when it began
   * (at-most-once writes are looked up from then on). A state-checked action passes false: a
   * repeat of it is harmless (its guard turns it into `no_change`, and the CRM's write sets a
   * state), so losing the mark in a Postgres crash costs nothing, and its WAL flush (on the way to
   * every tag; what it costs depends on the disk) is spared. Returns the start time; throws for an action that already
   * succeeded (never moved back).
   */
  async markRunning(id: string, durable = true): Promise<Date> {
    const rows = returnedRows<{ started_at: Date; commit_mode: string }>(
      await this.db.query(
        `UPDATE action_results a SET status = 'running', attempts = a.attempts + 1, started_at = now()
           ${durable ? `FROM ${SYNC_COMMIT_FROM}` : ''}
          WHERE a.id = $1 AND ${sameDay('a.run_trigger_at', '$1')} AND a.status <> 'succeeded'
          RETURNING a.started_at${durable ? `, ${SYNC_COMMIT_MODE}` : ''}`,
        [id],
      ),
    );
    if (durable) assertSynchronous(rows);
    // A succeeded action is never attempted again (two runners of one run, a stale row read).
    const [row] = rows;
    if (!row) throw new Error(`action ${id} already succeeded: not attempted again`);
    return row.started_at;
  }

  /** What the attempt aims at, durably (synchronous commit), before the call (see ActionTarget). */
  async setTarget(id: string, target: ActionTarget): Promise<void> {
    const rows = await this.db.query(
      `UPDATE action_results a SET target = $2 FROM ${SYNC_COMMIT_FROM}
        WHERE a.id = $1 AND ${sameDay('a.run_trigger_at', '$1')} RETURNING ${SYNC_COMMIT_MODE}`,
      [id, JSON.stringify(target)],
    );
    assertSynchronous(returnedRows(rows));
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
        WHERE id = $1 AND ${sameDay('run_trigger_at', '$1')} AND status = 'uncertain' RETURNING run_id AS "runId"`,
      [id, status, reason],
    );
    const [row] = returnedRows<{ runId: string }>(rows);
    if (row && resolution !== 'discard')
      await this.db.query(
        `UPDATE action_results SET status = 'pending', reason = NULL, finished_at = NULL
          WHERE run_id = $1 AND ${sameDay('run_trigger_at', '$1')} AND status = 'skipped' AND reason = 'previous_action_uncertain'`,
        [row.runId],
      );
    return row;
  }

  /** Never over a success: a sent message stays sent (see fail). */
  async skip(id: string, reason: string, detail: string): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'skipped', reason = $2, error_message = $3, finished_at = now()
        WHERE id = $1 AND ${sameDay('run_trigger_at', '$1')} AND status <> 'succeeded'`,
      [id, reason, detail],
    );
  }

  /**
   * Synchronous commit: once the CRM took the write, the ledger must not forget it (a forgotten
   * reaction or message would be sent again).
   */
  async succeed(
    id: string,
    durationMs: number,
    requestId: string | null,
    reason: string | null = null,
    saved: Record<string, unknown> | null = null,
  ) {
    const rows = await this.db.query(
      `UPDATE action_results a SET status = 'succeeded', reason = $4, request_id = $3, duration_ms = $2, finished_at = now(),
              error_code = NULL, error_message = NULL, http_status = NULL, saved = $5
         FROM ${SYNC_COMMIT_FROM}
        WHERE a.id = $1 AND ${sameDay('a.run_trigger_at', '$1')} RETURNING ${SYNC_COMMIT_MODE}`,
      [id, durationMs, requestId, reason, saved === null ? null : JSON.stringify(saved)],
    );
    assertSynchronous(returnedRows(rows));
  }

  /**
   * `status` pending records a transient failure of an attempt; the job retries later. Never over
   * a success: were anything to throw after succeed(), a sent message must not go back to pending
   * (and be sent again) or be shown as failed.
   */
  async fail(id: string, status: ActionStatus, f: Failure, durationMs: number): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = $2, reason = $3, error_code = $3, error_message = $4, http_status = $5,
              request_id = $6, duration_ms = $7, finished_at = CASE WHEN $2 = 'pending' THEN NULL ELSE now() END
        WHERE id = $1 AND ${sameDay('run_trigger_at', '$1')} AND status <> 'succeeded'`,
      [id, status, f.code, f.message.slice(0, 2000), f.status, f.requestId, durationMs],
    );
  }

  /** Nothing was sent (a host at its limit): pending again, the attempt not counted; the reason kept. */
  async deferUnsent(id: string, code: string, message: string): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'pending', attempts = GREATEST(attempts - 1, 0), reason = $2,
              error_code = $2, error_message = $3, finished_at = NULL WHERE id = $1 AND ${sameDay('run_trigger_at', '$1')} AND status = 'running'`,
      [id, code, message.slice(0, 2000)],
    );
  }

  async skipRemaining(runId: string, afterIndex: number, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'skipped', reason = $3, finished_at = now()
        WHERE run_id = $1 AND ${sameDay('run_trigger_at', '$1')} AND action_index > $2 AND status IN ('pending', 'running')`,
      [runId, afterIndex, reason],
    );
  }

  /**
   * Rows of reopened runs back to pending: those in `statuses` and those skipped behind them. Their
   * attempts start again from 0: HTTP_ACTION_MAX_ATTEMPTS counts sends since the last reopening.
   */
  async reopen(runIds: string[], statuses: string[]): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'pending', finished_at = NULL, attempts = 0
        WHERE run_id = ANY($1) AND ${sameDays('run_trigger_at', '$1')} AND (status = ANY($2) OR reason = 'previous_action_failed') AND status <> 'succeeded'`,
      [runIds, statuses],
    );
  }

  /** Whether the rule's own write on the contact succeeded within the window (loop protection). */
  async recentSuccess(ruleId: string, contactId: string, windowMs: number): Promise<boolean> {
    return (await this.recentSuccesses([{ ruleId, contactId }], windowMs)).size > 0;
  }

  /** recentSuccess for several (rule, contact) pairs in one statement: the pairs held back, as keys. */
  async recentSuccesses(pairs: readonly RuleContact[], windowMs: number): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    // A function with a cached plan (migration 1796010000000): the run that acted may be of any day.
    const rows: RuleContact[] = await this.db.query(
      `SELECT rule_id AS "ruleId", contact_id AS "contactId" FROM runs_recent_successes($1::text[], $2::text[], $3::bigint)`,
      [pairs.map((p) => p.ruleId), pairs.map((p) => p.contactId), windowMs],
    );
    return new Set(rows.map(ruleContactKey));
  }
}
