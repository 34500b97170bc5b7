// Everything stored about one contact, per source table (to move into the ledger's
// repositories). timeline.ts merges them in time order.
import type { DataSource } from 'typeorm';

/** Per source: enough for an operator's page; the newest are kept when there are more. */
export const TIMELINE_LIMIT = 500;

export interface DeliveryRow {
  id: string;
  type: string;
  eventKey: string;
  status: string;
  error: string | null;
  receivedAt: Date;
  processedAt: Date | null;
}

export interface TimelineRunRow {
  id: string;
  triggerKey: string;
  ruleId: string;
  ruleVersion: string;
  status: string;
  reason: string | null;
  mode: string;
  trace: import('../../rules/rule-types').ConditionTrace[];
  createdAt: Date;
}

export interface TimelineActionRow {
  runId: string;
  ruleId: string;
  index: number;
  action: Record<string, unknown> & { type: string };
  status: string;
  reason: string | null;
  errorCode: string | null;
  httpStatus: number | null;
  requestId: string | null;
  durationMs: number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface JournalRow {
  kind: string;
  at: Date;
  detail: Record<string, unknown>;
}

export function deliveriesOf(db: DataSource, contactId: string): Promise<DeliveryRow[]> {
  return db.query(
    `SELECT * FROM (SELECT id, type, event_key AS "eventKey", status, error, received_at AS "receivedAt",
                           processed_at AS "processedAt"
                      FROM inbox_events WHERE contact_id = $1 ORDER BY received_at DESC LIMIT $2) d
      ORDER BY "receivedAt"`,
    [contactId, TIMELINE_LIMIT],
  );
}

export function runsOf(db: DataSource, contactId: string): Promise<TimelineRunRow[]> {
  return db.query(
    `SELECT * FROM (SELECT id, trigger_key AS "triggerKey", rule_id AS "ruleId", rule_version AS "ruleVersion",
                           status, reason, mode, trace, created_at AS "createdAt"
                      FROM runs WHERE contact_id = $1 ORDER BY created_at DESC LIMIT $2) r
      ORDER BY "createdAt"`,
    [contactId, TIMELINE_LIMIT],
  );
}

export function actionsOf(db: DataSource, runIds: string[]): Promise<TimelineActionRow[]> {
  return db.query(
    `SELECT a.run_id AS "runId", r.rule_id AS "ruleId", a.action_index AS "index", a.action, a.status, a.reason,
            a.error_code AS "errorCode", a.http_status AS "httpStatus", a.request_id AS "requestId",
            a.duration_ms AS "durationMs", a.started_at AS "startedAt", a.finished_at AS "finishedAt"
       FROM action_results a JOIN runs r ON r.id = a.run_id WHERE a.run_id = ANY($1::uuid[])`,
    [runIds],
  );
}
