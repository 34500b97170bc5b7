// SQL for the runs ledger as the action runner moves through it. Plain class over a DataSource.
import type { Contact } from '../crm/crm-types';
import type { ActionStatus } from '../ledger/action-result.entity';
import type { RunStatus } from '../ledger/run.entity';

export interface RunRow {
  id: string;
  rule_id: string;
  contact_id: string;
  status: RunStatus;
  correlation_id: string | null;
  contact_snapshot: Record<string, unknown> | null;
  event_payload: { type?: string; data?: unknown } | null;
  priority: 'interactive' | 'bulk';
}

export interface ActionRow {
  id: string;
  action_index: number;
  action: unknown;
  status: ActionStatus;
}

export interface Failure {
  code: string;
  message: string;
  status: number | null;
  requestId: string | null;
}

/** One dedicated connection (a QueryRunner): the action runner passes the one holding the contact's lock. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export class ActionLedger {
  constructor(private readonly db: SqlRunner) {}

  /** Unfinished runs of a contact, oldest first, up to the given run (trigger order). */
  async unfinishedRunsUpTo(contactId: string, runId: string): Promise<RunRow[]> {
    return this.db.query(
      `SELECT r.id, r.rule_id, r.contact_id, r.status, r.correlation_id, r.contact_snapshot,
              e.payload AS event_payload,
              CASE WHEN r.trigger_key LIKE 'sweep%' THEN 'bulk' ELSE 'interactive' END AS priority
         FROM runs r LEFT JOIN inbox_events e ON e.id = r.inbox_event_id
        WHERE r.contact_id = $1 AND r.status IN ('pending', 'running')
          AND r.created_at <= (SELECT created_at FROM runs WHERE id = $2)
        ORDER BY r.created_at, r.id`,
      [contactId, runId],
    );
  }

  /** The contact as the mirror last saw it (webhooks, write responses, syncs), if mirrored. */
  async mirroredContact(contactId: string): Promise<Contact | undefined> {
    const [row] = await this.db.query(`SELECT raw FROM contact_mirror WHERE id = $1`, [contactId]);
    return row?.raw as Contact | undefined;
  }

  actionsOf(runId: string): Promise<ActionRow[]> {
    return this.db.query(
      `SELECT id, action_index, action, status FROM action_results WHERE run_id = $1 ORDER BY action_index`,
      [runId],
    );
  }

  async markRun(runId: string, status: RunStatus): Promise<void> {
    await this.db.query(`UPDATE runs SET status = $2, updated_at = now() WHERE id = $1`, [runId, status]);
  }

  async finishRun(runId: string, status: RunStatus): Promise<void> {
    await this.db.query(
      `UPDATE runs SET status = $2, updated_at = now(), finished_at = now() WHERE id = $1`,
      [runId, status],
    );
  }

  async markActionRunning(id: string): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'running', attempts = attempts + 1, started_at = now() WHERE id = $1`,
      [id],
    );
  }

  async skip(id: string, reason: string, detail: string): Promise<void> {
    await this.db.query(
      `UPDATE action_results SET status = 'skipped', reason = $2, error_message = $3, finished_at = now() WHERE id = $1`,
      [id, reason, detail],
    );
  }

  /**
   * Synchronous commit: once the CRM took the write, the ledger must not forget it (a forgotten
   * reaction or message would be sent again). `db` is one dedicated connection, so BEGIN/COMMIT hold.
   */
  async succeed(
    id: string,
    durationMs: number,
    requestId: string | null,
    reason: string | null = null,
  ): Promise<void> {
    await this.db.query(`BEGIN`);
    await this.db.query(`SET LOCAL synchronous_commit = on`);
    await this.db.query(
      `UPDATE action_results SET status = 'succeeded', reason = $4, request_id = $3, duration_ms = $2, finished_at = now(),
              error_code = NULL, error_message = NULL, http_status = NULL WHERE id = $1`,
      [id, durationMs, requestId, reason],
    );
    await this.db.query(`COMMIT`);
  }

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
}
