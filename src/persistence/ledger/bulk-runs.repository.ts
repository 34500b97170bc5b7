// Every statement on `bulk_runs`. Each state change is one conditional UPDATE (`WHERE state = …`),
// so two operators (or two processes) can never both confirm, and a lost race answers nothing.
import type { BulkRunEntity, BulkRunForecast, BulkRunSource, BulkRunState } from './bulk-run.entity';
import type { Queryable } from '../sql/queryable';
import { returnedRows } from '../sql/returned-rows';

export type BulkRunRow = Pick<
  BulkRunEntity,
  | 'id'
  | 'ruleId'
  | 'ruleVersion'
  | 'rulesCommit'
  | 'source'
  | 'sourceDetail'
  | 'state'
  | 'contactIds'
  | 'forecast'
  | 'evaluated'
  | 'runsCreated'
  | 'createdBy'
  | 'decidedBy'
  | 'detail'
  | 'createdAt'
  | 'updatedAt'
>;

const COLUMNS = `id, rule_id AS "ruleId", rule_version AS "ruleVersion", rules_commit AS "rulesCommit", source,
  source_detail AS "sourceDetail", state, contact_ids AS "contactIds", forecast, evaluated,
  runs_created AS "runsCreated", created_by AS "createdBy", decided_by AS "decidedBy", detail,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

export interface NewBulkRun {
  ruleId: string;
  ruleVersion: string;
  rulesCommit: string | null;
  source: BulkRunSource;
  sourceDetail: string | null;
  createdBy: string;
}

export interface BulkRunPreview {
  contactIds: readonly string[];
  evaluated: number;
  forecast: BulkRunForecast;
  detail: string | null;
}

export class BulkRunsRepository {
  constructor(private readonly db: Queryable) {}

  /** A manual bulk run, previewed already: it waits for a confirmation. */
  async insertPreviewed(run: NewBulkRun, preview: BulkRunPreview): Promise<BulkRunRow> {
    const [row] = await this.db.query(
      `INSERT INTO bulk_runs (rule_id, rule_version, rules_commit, source, source_detail, created_by,
                              state, contact_ids, evaluated, forecast, detail)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending_confirmation', $7, $8, $9, $10) RETURNING ${COLUMNS}`,
      [
        run.ruleId,
        run.ruleVersion,
        run.rulesCommit,
        run.source,
        run.sourceDetail,
        run.createdBy,
        [...preview.contactIds],
        preview.evaluated,
        JSON.stringify(preview.forecast),
        preview.detail,
      ],
    );
    return row;
  }

  /**
   * The backfill of a rule version, claimed for its preview: the first process to insert it, or
   * the one that finds it `preparing` for longer than `staleMs` (its preparer died) and takes it
   * over. Undefined: another process has it, or it was prepared already.
   */
  async claimBackfill(
    run: Omit<NewBulkRun, 'source' | 'sourceDetail'>,
    staleMs: number,
  ): Promise<string | undefined> {
    const [inserted] = await this.db.query(
      `INSERT INTO bulk_runs (rule_id, rule_version, rules_commit, source, created_by)
       VALUES ($1, $2, $3, 'backfill', $4)
       ON CONFLICT (rule_id, rule_version) WHERE source = 'backfill' DO NOTHING RETURNING id`,
      [run.ruleId, run.ruleVersion, run.rulesCommit, run.createdBy],
    );
    if (inserted) return inserted.id;
    const [taken] = returnedRows<{ id: string }>(
      await this.db.query(
        `UPDATE bulk_runs SET updated_at = now(), created_by = $3
          WHERE source = 'backfill' AND rule_id = $1 AND rule_version = $2 AND state = 'preparing'
            AND updated_at < now() - ($4::bigint * interval '1 millisecond')
          RETURNING id`,
        [run.ruleId, run.ruleVersion, run.createdBy, staleMs],
      ),
    );
    return taken?.id;
  }

  /** A backfill's preview is ready: it now waits for a confirmation. */
  async previewed(id: string, preview: BulkRunPreview): Promise<boolean> {
    const rows = returnedRows<{ id: string }>(
      await this.db.query(
        `UPDATE bulk_runs SET state = 'pending_confirmation', contact_ids = $2, evaluated = $3, forecast = $4,
                detail = $5, updated_at = now()
          WHERE id = $1 AND state = 'preparing' RETURNING id`,
        [id, [...preview.contactIds], preview.evaluated, JSON.stringify(preview.forecast), preview.detail],
      ),
    );
    return rows.length > 0;
  }

  /** pending_confirmation → running (confirm) or cancelled; undefined when it was not waiting. */
  async decide(id: string, to: 'running' | 'cancelled', by: string): Promise<BulkRunRow | undefined> {
    const [row] = returnedRows<BulkRunRow>(
      await this.db.query(
        `UPDATE bulk_runs SET state = $2, decided_by = $3, updated_at = now()
          WHERE id = $1 AND state = 'pending_confirmation' RETURNING ${COLUMNS}`,
        [id, to, by],
      ),
    );
    return row;
  }

  /** How many of its runs exist so far (a running bulk run's heartbeat too). */
  async progress(id: string, runsCreated: number): Promise<void> {
    await this.db.query(
      `UPDATE bulk_runs SET runs_created = GREATEST(runs_created, $2), updated_at = now()
        WHERE id = $1 AND state = 'running'`,
      [id, runsCreated],
    );
  }

  /** running → done or failed (with why). */
  async finish(
    id: string,
    state: Extract<BulkRunState, 'done' | 'failed'>,
    detail: string | null,
  ): Promise<void> {
    await this.db.query(
      `UPDATE bulk_runs SET state = $2, detail = COALESCE($3, detail), updated_at = now()
        WHERE id = $1 AND state IN ('running', 'preparing')`,
      [id, state, detail],
    );
  }

  async find(id: string): Promise<BulkRunRow | undefined> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM bulk_runs WHERE id = $1`, [id]);
    return row;
  }

  /** Newest first; `ruleId` narrows to one rule. */
  list(f: { ruleId?: string; limit: number }): Promise<BulkRunRow[]> {
    return this.db.query(
      `SELECT ${COLUMNS} FROM bulk_runs WHERE ($1::text IS NULL OR rule_id = $1) ORDER BY created_at DESC LIMIT $2`,
      [f.ruleId ?? null, f.limit],
    );
  }

  /** Confirmed bulk runs not finished: their jobs are added again at start (same job ids: no duplicate). */
  async runningIds(): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(`SELECT id FROM bulk_runs WHERE state = 'running'`);
    return rows.map((r) => r.id);
  }
}
