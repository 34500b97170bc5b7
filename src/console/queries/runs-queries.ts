// Read queries on runs and action_results for the console (to move into the ledger's
// repositories once they exist: SQL on those tables belongs there).
import type { DataSource } from 'typeorm';

export interface RunFilter {
  rule?: string;
  contact?: string;
  status?: string;
  since?: Date;
  until?: Date;
  limit: number;
}

export interface RunListRow {
  id: string;
  triggerKey: string;
  ruleId: string;
  ruleVersion: string;
  contactId: string;
  status: string;
  reason: string | null;
  mode: string;
  createdAt: Date;
  finishedAt: Date | null;
}

const RUN_COLUMNS = `id, trigger_key AS "triggerKey", rule_id AS "ruleId", rule_version AS "ruleVersion",
  contact_id AS "contactId", status, reason, mode, created_at AS "createdAt", finished_at AS "finishedAt"`;

export async function findRuns(db: DataSource, f: RunFilter): Promise<RunListRow[]> {
  return db.query(
    `SELECT ${RUN_COLUMNS} FROM runs
      WHERE ($1::text IS NULL OR rule_id = $1) AND ($2::text IS NULL OR contact_id = $2)
        AND ($3::text IS NULL OR status = $3 OR reason = $3)
        AND ($4::timestamptz IS NULL OR created_at >= $4) AND ($5::timestamptz IS NULL OR created_at < $5)
      ORDER BY created_at DESC, id LIMIT $6`,
    [f.rule ?? null, f.contact ?? null, f.status ?? null, f.since ?? null, f.until ?? null, f.limit],
  );
}

export interface RunDetail extends RunListRow {
  inboxEventId: string | null;
  ruleSetVersion: string;
  trace: import('../../rules/rule-types').ConditionTrace[];
  correlationId: string | null;
  eventType: string | null;
}

export interface ActionResultRow {
  index: number;
  action: Record<string, unknown> & { type: string };
  status: string;
  reason: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  httpStatus: number | null;
  requestId: string | null;
  attempts: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationMs: number | null;
}

export async function findRun(db: DataSource, id: string): Promise<RunDetail | undefined> {
  const [run] = await db.query(
    `SELECT r.id, r.trigger_key AS "triggerKey", r.rule_id AS "ruleId", r.rule_version AS "ruleVersion",
            r.contact_id AS "contactId", r.status, r.reason, r.mode, r.created_at AS "createdAt",
            r.finished_at AS "finishedAt", r.inbox_event_id AS "inboxEventId", r.rule_set_version AS "ruleSetVersion",
            r.trace, r.correlation_id AS "correlationId", e.type AS "eventType"
       FROM runs r LEFT JOIN inbox_events e ON e.id = r.inbox_event_id WHERE r.id = $1`,
    [id],
  );
  return run;
}

export async function findActionResults(db: DataSource, runId: string): Promise<ActionResultRow[]> {
  return db.query(
    `SELECT action_index AS "index", action, status, reason, error_code AS "errorCode", error_message AS "errorMessage",
            http_status AS "httpStatus", request_id AS "requestId", attempts, started_at AS "startedAt",
            finished_at AS "finishedAt", duration_ms AS "durationMs"
       FROM action_results WHERE run_id = $1 ORDER BY action_index`,
    [runId],
  );
}

export interface RuleRunCounts {
  ruleId: string;
  matched: number;
  notMatched: number;
  suppressed: number;
  paused: number;
  failed: number;
  lastRunAt: Date | null;
}

/** Per rule over a period: matched (acted or tried), not matched, suppressed, paused, failed. */
export async function countRunsByRule(db: DataSource, since: Date): Promise<RuleRunCounts[]> {
  return db.query(
    `SELECT rule_id AS "ruleId",
            count(*) FILTER (WHERE status IN ('pending','running','succeeded','failed','dead'))::int AS matched,
            count(*) FILTER (WHERE status = 'not_matched')::int AS "notMatched",
            count(*) FILTER (WHERE status = 'suppressed' AND reason IS DISTINCT FROM 'paused')::int AS suppressed,
            count(*) FILTER (WHERE status = 'suppressed' AND reason = 'paused')::int AS paused,
            count(*) FILTER (WHERE status IN ('failed','dead'))::int AS failed,
            max(created_at) AS "lastRunAt"
       FROM runs WHERE created_at >= $1 GROUP BY rule_id`,
    [since],
  );
}

/** The latest runs of every rule (at most `perRule` each), newest first. */
export async function lastRunsByRule(db: DataSource, since: Date, perRule: number): Promise<RunListRow[]> {
  return db.query(
    `SELECT ${RUN_COLUMNS} FROM (
       SELECT *, row_number() OVER (PARTITION BY rule_id ORDER BY created_at DESC) AS n FROM runs WHERE created_at >= $1
     ) ranked WHERE n <= $2 ORDER BY created_at DESC`,
    [since, perRule],
  );
}
