// Every query on rule_controls and rule_control_audit. A change and its audit row commit
// together, and the same transaction notifies every process (LISTEN rule_controls).
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedRows } from '../../persistence/sql/returned-rows';
import type { Queryable } from '../../persistence/sql/queryable';
import type { RuleControlAuditEntity, RuleControlChange } from './rule-control-audit.entity';
import type { RuleControlEntity } from './rule-control.entity';

export const RULE_CONTROLS_CHANNEL = 'rule_controls';

/** A rule_controls row (its one row type is the entity; COLUMNS selects all of it). */
export type RuleControl = RuleControlEntity;

/** A rule_control_audit row (its one row type is the entity). */
export type RuleControlAudit = RuleControlAuditEntity;

const COLUMNS = `rule_id AS "ruleId", paused, shadow, updated_at AS "updatedAt", updated_by AS "updatedBy"`;

@Injectable()
export class RuleControlsRepository {
  constructor(private readonly db: DataSource) {}

  all(): Promise<RuleControl[]> {
    return this.db.query(`SELECT ${COLUMNS} FROM rule_controls`);
  }

  /** Applies one change, records it, and tells every process; synchronous commit (an operator acted). */
  async change(ruleId: string, change: RuleControlChange, actor: string, note: string | null): Promise<void> {
    const paused = change === 'pause' ? true : change === 'resume' ? false : null;
    const shadow = change === 'shadow-on' ? true : change === 'shadow-off' ? false : null;
    await this.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL synchronous_commit = on`);
      await tx.query(
        `INSERT INTO rule_controls (rule_id, paused, shadow, updated_by)
         VALUES ($1, coalesce($2, false), coalesce($3, false), $4)
         ON CONFLICT (rule_id) DO UPDATE SET paused = coalesce($2, rule_controls.paused),
           shadow = coalesce($3, rule_controls.shadow), updated_at = now(), updated_by = $4`,
        [ruleId, paused, shadow, actor],
      );
      await tx.query(
        `INSERT INTO rule_control_audit (rule_id, change, actor, note) VALUES ($1, $2, $3, $4)`,
        [ruleId, change, actor, note],
      );
      // Delivered to listeners at commit, never before: they re-read committed state.
      await tx.query(`SELECT pg_notify($1, $2)`, [RULE_CONTROLS_CHANNEL, ruleId]);
    });
  }

  audit(limit: number, ruleId?: string): Promise<RuleControlAudit[]> {
    return this.db.query(
      `SELECT id, rule_id AS "ruleId", change, actor, note, at FROM rule_control_audit
        WHERE $1::text IS NULL OR rule_id = $1 ORDER BY at DESC, id DESC LIMIT $2`,
      [ruleId ?? null, limit],
    );
  }

  /** Retention (the audit's longer horizon): up to `limit` audit rows older than `cutoff`. */
  async deleteAuditBefore(cutoff: Date, limit: number): Promise<number> {
    return affectedRows(
      await this.db.query(
        `DELETE FROM rule_control_audit WHERE id IN (SELECT id FROM rule_control_audit WHERE at < $1 LIMIT $2)`,
        [cutoff, limit],
      ),
    );
  }
}

/** Subscribes a dedicated connection to the channel every change notifies (LISTEN holds the connection). */
export async function listenForChanges(connection: Queryable): Promise<void> {
  await connection.query(`LISTEN ${RULE_CONTROLS_CHANNEL}`);
}
