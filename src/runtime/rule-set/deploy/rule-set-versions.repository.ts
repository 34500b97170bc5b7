// Every query on rule_set_versions and rule_set_deploy_audit. An activation, its audit row and the
// NOTIFY commit together: every process re-reads the active row when the channel fires, so the
// fleet switches within milliseconds of the commit, never before it.
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Queryable } from '../../../persistence/sql/queryable';
import { returnedRows } from '../../../persistence/sql/returned-rows';
import type { RuleProblem } from '../../../language/rules/format/rule-types';
import type { DeployAction, RuleSetDeployAuditEntity } from './rule-set-deploy-audit.entity';
import type { RuleSetVersionEntity, RuleSetVersionStatus } from './rule-set-version.entity';

export const RULE_SET_VERSIONS_CHANNEL = 'rule_set_versions';

/** A rule_set_versions row (its one row type is the entity). */
export type RuleSetVersion = RuleSetVersionEntity;
/** A row of the history: everything but the files. */
export type RuleSetVersionSummary = Omit<RuleSetVersion, 'files'>;
export type DeployAudit = RuleSetDeployAuditEntity;

/** A version to record: what was fetched (or read from a directory) and its validation. */
export type NewRuleSetVersion = Pick<
  RuleSetVersion,
  'commit' | 'source' | 'author' | 'message' | 'files' | 'report' | 'ruleSetVersion'
>;

const SUMMARY = `id, commit, source, author, message, report, status, rule_set_version AS "ruleSetVersion",
  activated_by AS "activatedBy", activated_at AS "activatedAt", pinned, created_at AS "createdAt"`;
const ALL = `${SUMMARY}, files`;

@Injectable()
export class RuleSetVersionsRepository {
  constructor(private readonly db: DataSource) {}

  async active(): Promise<RuleSetVersion | undefined> {
    const rows: RuleSetVersion[] = await this.db.query(
      `SELECT ${ALL} FROM rule_set_versions WHERE status = 'activated'`,
    );
    return rows[0];
  }

  async byCommit(commit: string): Promise<RuleSetVersion | undefined> {
    const rows: RuleSetVersion[] = await this.db.query(
      `SELECT ${ALL} FROM rule_set_versions WHERE commit = $1 OR (length($1) >= 7 AND commit LIKE $1 || '%')
        ORDER BY commit = $1 DESC LIMIT 1`,
      [commit],
    );
    return rows[0];
  }

  history(limit: number): Promise<RuleSetVersionSummary[]> {
    return this.db.query(`SELECT ${SUMMARY} FROM rule_set_versions ORDER BY id DESC LIMIT $1`, [limit]);
  }

  /** The version activated before the active one (rollback without a commit): newest first. */
  async previous(): Promise<RuleSetVersionSummary | undefined> {
    const rows: RuleSetVersionSummary[] = await this.db.query(
      `SELECT ${SUMMARY} FROM rule_set_versions
        WHERE status IN ('superseded', 'rolled-back') AND activated_at IS NOT NULL
        ORDER BY activated_at DESC LIMIT 1`,
    );
    return rows[0];
  }

  /** The newest valid version recorded but not activated (held back by a pin), newer than the active one. */
  async newestHeldBack(): Promise<RuleSetVersionSummary | undefined> {
    const rows: RuleSetVersionSummary[] = await this.db.query(
      `SELECT ${SUMMARY} FROM rule_set_versions
        WHERE status = 'recorded' AND id > coalesce((SELECT max(id) FROM rule_set_versions WHERE status = 'activated'), 0)
        ORDER BY id DESC LIMIT 1`,
    );
    return rows[0];
  }

  /**
   * Records a version once per commit with `status` (`recorded` or `refused`); false when that
   * commit was recorded before (a re-fetch of the same commit changes nothing).
   */
  async record(version: NewRuleSetVersion, status: RuleSetVersionStatus, actor: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows: unknown[] = await tx.query(
        `INSERT INTO rule_set_versions (commit, source, author, message, files, report, status, rule_set_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (commit) DO NOTHING RETURNING id`,
        [
          version.commit,
          version.source,
          version.author,
          version.message,
          JSON.stringify(version.files),
          JSON.stringify(version.report),
          status,
          version.ruleSetVersion,
        ],
      );
      if (rows.length === 0) return false;
      if (status === 'refused') await audit(tx, 'refuse', version.commit, actor, firstError(version.report));
      return true;
    });
  }

  /**
   * Makes `commit` the active version; the one it replaces becomes `superseded` (or `rolled-back`
   * for a rollback). Refuses (false) a refused commit, and any change while a pin holds another
   * version unless `overridePin`. Synchronous commit: an operator or a deploy acted.
   */
  async activate(
    commit: string,
    actor: string,
    opts: { action: DeployAction; overridePin?: boolean; note?: string | null },
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL synchronous_commit = on`);
      // One activation at a time: the active row's lock orders concurrent ones (the fetch job and an operator).
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('crmr:rule-set-activate', 0))`);
      const [target]: { status: string; pinned: boolean }[] = await tx.query(
        `SELECT status, pinned FROM rule_set_versions WHERE commit = $1`,
        [commit],
      );
      if (!target || target.status === 'refused') return false;
      if (target.status === 'activated') return true;
      const [pin]: { commit: string }[] = await tx.query(`SELECT commit FROM rule_set_versions WHERE pinned`);
      if (pin && pin.commit !== commit && !opts.overridePin) return false;
      await tx.query(`UPDATE rule_set_versions SET status = $1 WHERE status = 'activated'`, [
        opts.action === 'rollback' ? 'rolled-back' : 'superseded',
      ]);
      await tx.query(
        `UPDATE rule_set_versions SET status = 'activated', activated_by = $2, activated_at = now() WHERE commit = $1`,
        [commit, actor],
      );
      await audit(tx, opts.action, commit, actor, opts.note ?? null);
      await tx.query(`SELECT pg_notify($1, $2)`, [RULE_SET_VERSIONS_CHANNEL, commit]);
      return true;
    });
  }

  /** Pins `commit` (which must be active, see DeployService.pin); replaces any other pin. */
  async pin(commit: string, actor: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query(`UPDATE rule_set_versions SET pinned = false WHERE pinned AND commit <> $1`, [commit]);
      const rows = returnedRows<{ id: string }>(
        await tx.query(
          `UPDATE rule_set_versions SET pinned = true WHERE commit = $1 AND status = 'activated' RETURNING id`,
          [commit],
        ),
      );
      if (rows.length) await audit(tx, 'pin', commit, actor, null);
      return rows.length > 0;
    });
  }

  async unpin(actor: string): Promise<string | undefined> {
    return this.db.transaction(async (tx) => {
      const rows = returnedRows<{ commit: string }>(
        await tx.query(`UPDATE rule_set_versions SET pinned = false WHERE pinned RETURNING commit`),
      );
      if (rows[0]) await audit(tx, 'unpin', rows[0].commit, actor, null);
      return rows[0]?.commit;
    });
  }

  async pinned(): Promise<string | undefined> {
    const rows: { commit: string }[] = await this.db.query(
      `SELECT commit FROM rule_set_versions WHERE pinned`,
    );
    return rows[0]?.commit;
  }

  /**
   * Git reachability for the whole fleet: the newest of `fetch-failed` / `fetch-recovered`. A
   * failure is written once per outage and the recovery once, whichever process fetched.
   */
  async fetchState(): Promise<DeployAudit | undefined> {
    const rows: DeployAudit[] = await this.db.query(
      `SELECT id, action, commit, actor, note, at FROM rule_set_deploy_audit
        WHERE action IN ('fetch-failed', 'fetch-recovered') ORDER BY id DESC LIMIT 1`,
    );
    return rows[0];
  }

  /** Records a fetch's outcome when it changes the fleet's state (an outage begins or ends). */
  async recordFetch(ok: boolean, actor: string, note: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('crmr:rules-git-fetch-state', 0))`);
      const [last]: { action: string }[] = await tx.query(
        `SELECT action FROM rule_set_deploy_audit WHERE action IN ('fetch-failed', 'fetch-recovered') ORDER BY id DESC LIMIT 1`,
      );
      const failing = last?.action === 'fetch-failed';
      if (ok && failing) await audit(tx, 'fetch-recovered', null, actor, null);
      if (!ok && !failing) await audit(tx, 'fetch-failed', null, actor, note);
    });
  }

  audit(limit: number): Promise<DeployAudit[]> {
    return this.db.query(
      `SELECT id, action, commit, actor, note, at FROM rule_set_deploy_audit ORDER BY at DESC, id DESC LIMIT $1`,
      [limit],
    );
  }
}

async function audit(
  tx: EntityManager,
  action: DeployAction,
  commit: string | null,
  actor: string,
  note: string | null,
): Promise<void> {
  await tx.query(`INSERT INTO rule_set_deploy_audit (action, commit, actor, note) VALUES ($1, $2, $3, $4)`, [
    action,
    commit,
    actor,
    note,
  ]);
}

function firstError(report: readonly RuleProblem[]): string | null {
  const p = report.find((x) => x.severity === 'error');
  return p ? `${p.file}:${p.line}:${p.col} ${p.message}`.slice(0, 500) : null;
}

/** Subscribes a dedicated connection to the channel every activation notifies (LISTEN holds it). */
export async function listenForActivations(connection: Queryable): Promise<void> {
  await connection.query(`LISTEN ${RULE_SET_VERSIONS_CHANNEL}`);
}
