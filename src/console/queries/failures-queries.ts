// What needs an operator: failed events, dead / uncertain / failed actions (to move into the
// ledger's repositories).
import type { DataSource } from 'typeorm';

export const FAILED_ACTION_STATUSES = ['dead', 'uncertain', 'failed'] as const;

export interface FailureFilter {
  rule?: string;
  status?: string;
  since?: Date;
  limit: number;
}

export interface FailedAction {
  runId: string;
  index: number;
  ruleId: string;
  contactId: string;
  action: Record<string, unknown> & { type: string };
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
  requestId: string | null;
  attempts: number;
  finishedAt: Date | null;
}

export async function findFailedActions(db: DataSource, f: FailureFilter): Promise<FailedAction[]> {
  const statuses = f.status ? [f.status] : [...FAILED_ACTION_STATUSES];
  return db.query(
    `SELECT a.run_id AS "runId", a.action_index AS "index", r.rule_id AS "ruleId", r.contact_id AS "contactId",
            a.action, a.status, a.error_code AS "errorCode", a.error_message AS "errorMessage",
            a.request_id AS "requestId", a.attempts, a.finished_at AS "finishedAt"
       FROM action_results a JOIN runs r ON r.id = a.run_id
      WHERE a.status = ANY($1) AND ($2::text IS NULL OR r.rule_id = $2)
        AND ($3::timestamptz IS NULL OR coalesce(a.finished_at, r.created_at) >= $3)
      ORDER BY coalesce(a.finished_at, r.created_at) DESC LIMIT $4`,
    [statuses, f.rule ?? null, f.since ?? null, f.limit],
  );
}

export interface FailedEvent {
  id: string;
  type: string;
  contactId: string | null;
  error: string | null;
  receivedAt: Date;
}

export async function findFailedEvents(
  db: DataSource,
  since: Date | undefined,
  limit: number,
): Promise<FailedEvent[]> {
  return db.query(
    `SELECT id, type, contact_id AS "contactId", error, received_at AS "receivedAt" FROM inbox_events
      WHERE status = 'failed' AND ($1::timestamptz IS NULL OR received_at >= $1)
      ORDER BY received_at DESC LIMIT $2`,
    [since ?? null, limit],
  );
}

export interface FailureCounts {
  deadActions: number;
  uncertainActions: number;
  failedActions: number;
  failedEvents: number;
}

export async function countFailures(db: DataSource): Promise<FailureCounts> {
  const [a] = await db.query(
    `SELECT count(*) FILTER (WHERE status = 'dead')::int AS dead,
            count(*) FILTER (WHERE status = 'uncertain')::int AS uncertain,
            count(*) FILTER (WHERE status = 'failed')::int AS failed
       FROM action_results WHERE status = ANY($1)`,
    [[...FAILED_ACTION_STATUSES]],
  );
  const [e] = await db.query(`SELECT count(*)::int AS n FROM inbox_events WHERE status = 'failed'`);
  return { deadActions: a.dead, uncertainActions: a.uncertain, failedActions: a.failed, failedEvents: e.n };
}
