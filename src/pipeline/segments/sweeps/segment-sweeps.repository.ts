// Every statement on `segment_sweeps`: one row per (rule, tick), its status, phase and progress.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedRows, returnedRows } from '../../../persistence/sql/returned-rows';
import type { SnakeRow } from '../../../persistence/sql/snake-row';
import type { SegmentSweepEntity, SweepStatus } from '../segment-sweep.entity';

/**
 * The table's one row type, SegmentSweepEntity, as `SELECT *` returns it (latestPerRule, history).
 * `eta_ms` is a bigint column, which pg returns as a string (no cast in those statements).
 */
export type SegmentSweepRow = SnakeRow<SegmentSweepEntity>;

/**
 * A running sweep's progress as writeProgress stores it. `etaMs` is written from a number; the
 * bigint column reads back as a string (SegmentSweepRow's eta_ms).
 */
export type SweepProgressRow = Pick<
  SegmentSweepEntity,
  | 'phase'
  | 'pagesDone'
  | 'pagesTotal'
  | 'contactsEvaluated'
  | 'members'
  | 'entered'
  | 'left'
  | 'actionsQueued'
  | 'callsRemaining'
> & { etaMs: number | null };

@Injectable()
export class SegmentSweepsRepository {
  constructor(private readonly db: DataSource) {}

  /** The tick's row, created on first sight: a retried or duplicated job finds the same one. */
  async claim(ruleId: string, tick: Date, reason: string): Promise<{ id: string; status: SweepStatus }> {
    const [row] = await this.db.query(
      `INSERT INTO segment_sweeps (rule_id, tick_at, reason) VALUES ($1, $2, $3)
       ON CONFLICT (rule_id, tick_at) DO UPDATE SET updated_at = now() RETURNING id, status`,
      [ruleId, tick, reason],
    );
    return row;
  }

  /** Only a sweep nobody started is skipped; true when this call skipped it. */
  async skipQueued(id: string, detail: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE segment_sweeps SET status = 'skipped', detail = $2, finished_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'queued' RETURNING id`,
        [id, detail],
      ),
    );
    return rows.length > 0;
  }

  async markRunning(id: string): Promise<void> {
    await this.db.query(
      `UPDATE segment_sweeps SET status = 'running', started_at = COALESCE(started_at, now()), detail = NULL, updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  async writeProgress(id: string, p: SweepProgressRow): Promise<void> {
    await this.db.query(
      `UPDATE segment_sweeps SET phase = $2, pages_done = $3, pages_total = $4, contacts_evaluated = $5, members = $6,
              entered = $7, "left" = $8, actions_queued = $9, calls_remaining = $10, eta_ms = $11, updated_at = now()
        WHERE id = $1`,
      [
        id,
        p.phase,
        p.pagesDone,
        p.pagesTotal,
        p.contactsEvaluated,
        p.members,
        p.entered,
        p.left,
        p.actionsQueued,
        p.callsRemaining,
        p.etaMs,
      ],
    );
  }

  async finish(id: string, status: SweepStatus, detail: string | null, evaluationMs: number | null) {
    await this.db.query(
      `UPDATE segment_sweeps SET status = $2, detail = $3, evaluation_ms = COALESCE($4, evaluation_ms), finished_at = now(), updated_at = now() WHERE id = $1`,
      [id, status, detail, evaluationMs],
    );
  }

  /** Retention: up to `limit` ended sweeps queued before `cutoff` (IDX_segment_sweeps_ended_queued). */
  async deleteEndedBefore(cutoff: Date, limit: number): Promise<number> {
    return affectedRows(
      await this.db.query(
        `DELETE FROM segment_sweeps WHERE id IN (
           SELECT id FROM segment_sweeps WHERE status IN ('succeeded', 'failed', 'skipped') AND queued_at < $1 LIMIT $2)`,
        [cutoff, limit],
      ),
    );
  }

  /** The latest sweep of every rule. */
  latestPerRule(): Promise<SegmentSweepRow[]> {
    return this.db.query(
      `SELECT DISTINCT ON (rule_id) * FROM segment_sweeps ORDER BY rule_id, tick_at DESC, queued_at DESC`,
    );
  }

  history(ruleId: string, limit: number): Promise<SegmentSweepRow[]> {
    return this.db.query(`SELECT * FROM segment_sweeps WHERE rule_id = $1 ORDER BY tick_at DESC LIMIT $2`, [
      ruleId,
      limit,
    ]);
  }
}
