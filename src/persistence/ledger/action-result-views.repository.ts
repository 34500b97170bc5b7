// Read-only views of `action_results` for the operator console, admin, retry and sweep reports.
// Not a repository of its own: ActionResultsRepository holds one as `views` (one repository per
// table, its statements kept in two files, as runs' are). Each view is a Pick<> of the table's one
// row type, ActionResultEntity, under the camelCase names its statement aliases, plus the joined
// run's columns.
import type { Queryable } from '../sql/queryable';
import {
  MAYBE_SENT,
  type AttentionFilter,
  type ActionNeedingAttention,
  type ContactActionRow,
  type RetryCandidate,
  type RunActionView,
  type SentForTrigger,
  type SkippedMessage,
  type SkippedMessageFilter,
} from './action-result-view-types';

import { attentionSkipSql } from './attention-skip-sql';
import { sameDay, sameDays } from '../partitions/ledger-id';

export * from './action-result-view-types';

/**
 * The skips an operator must see (attention-skip-sql.ts: the partial index's predicate, read by
 * finished_at; the overview counts them every 5 s).
 */
function skippedMessagesFrom(f: SkippedMessageFilter): string {
  return `FROM action_results a JOIN runs r ON r.id = a.run_id AND r.trigger_at = a.run_trigger_at
  WHERE ${attentionSkipSql(f, '$2')} AND a.finished_at >= $1
    AND ($3::text IS NULL OR r.rule_id = $3) AND ($4::uuid[] IS NULL OR r.id = ANY($4::uuid[]))`;
}

const skippedParams = (f: SkippedMessageFilter) => [f.since, f.types, f.rule ?? null, f.runIds ?? null];

/** The views, over the same pool or transaction as the repository that holds them. */
export class ActionResultViews {
  constructor(private readonly db: Queryable) {}

  /** Actions of the runs created since, by status. */
  async countsByStatusSince(since: Date): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.db.query(
      `SELECT a.status, count(*)::int AS n FROM action_results a JOIN runs r ON r.id = a.run_id AND r.trigger_at = a.run_trigger_at
        WHERE r.created_at >= $1 GROUP BY a.status`,
      [since],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** Actions still to be executed, by their run's gateway priority: each is a CRM call ahead. */
  async unfinishedByPriority(): Promise<{ interactive: number; bulk: number }> {
    const rows: { priority: 'interactive' | 'bulk'; n: number }[] = await this.db.query(
      `SELECT r.priority, count(*)::int AS n FROM action_results a JOIN runs r ON r.id = a.run_id AND r.trigger_at = a.run_trigger_at
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
         FROM action_results a JOIN runs r ON r.id = a.run_id AND r.trigger_at = a.run_trigger_at
        WHERE a.status = ANY($1) AND ($2::text IS NULL OR r.rule_id = $2)
          AND ($4::uuid[] IS NULL OR r.id = ANY($4::uuid[]))
        ORDER BY coalesce(a.finished_at, r.created_at) DESC LIMIT $3`,
      [f.statuses, f.rule ?? null, f.limit, f.runIds ?? null],
    );
  }

  async countsNeedingAttention(statuses: readonly string[]): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.db.query(
      `SELECT status, count(*)::int AS n FROM action_results WHERE status = ANY($1) GROUP BY status`,
      [statuses],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** Customer messages skipped for an attention reason since a time, newest first. */
  skippedMessages(f: SkippedMessageFilter, limit: number): Promise<SkippedMessage[]> {
    return this.db.query(
      `SELECT a.id, a.run_id AS "runId", a.action_index AS "index", r.rule_id AS "ruleId", r.contact_id AS "contactId",
              a.action, a.reason, a.error_message AS "errorMessage", a.finished_at AS "finishedAt",
              ARRAY(SELECT b.action_index FROM action_results b WHERE b.run_id = a.run_id
                      AND b.action_index > a.action_index AND b.status = 'succeeded' ORDER BY 1) AS "laterDone"
         ${skippedMessagesFrom(f)} ORDER BY a.finished_at DESC LIMIT $5`,
      [...skippedParams(f), limit],
    );
  }

  /** How many skippedMessages() there are, by reason. */
  async countSkippedMessages(f: SkippedMessageFilter): Promise<Record<string, number>> {
    const rows: { reason: string; n: number }[] = await this.db.query(
      `SELECT a.reason, count(*)::int AS n ${skippedMessagesFrom(f)} GROUP BY a.reason`,
      skippedParams(f),
    );
    return Object.fromEntries(rows.map((r) => [r.reason, r.n]));
  }

  /**
   * A rule's customer messages (`types`) of the runs created since, per declared category (null:
   * none declared), status and reason: the console's counts per category (category-messages.ts).
   */
  messageCountsByCategory(
    ruleId: string,
    types: readonly string[],
    since: Date,
  ): Promise<{ category: string | null; status: string; reason: string | null; n: number }[]> {
    return this.db.query(
      `SELECT a.action->>'category' AS category, a.status, a.reason, count(*)::int AS n
         FROM runs r JOIN action_results a ON a.run_id = r.id AND a.run_trigger_at = r.trigger_at
        WHERE r.rule_id = $1 AND r.created_at >= $3 AND a.action->>'type' = ANY($2::text[])
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [ruleId, types, since],
    );
  }

  /** Every action of the given runs, with its rule (contact timeline). */
  ofRuns(runIds: string[]): Promise<ContactActionRow[]> {
    return this.db.query(
      `SELECT a.run_id AS "runId", r.rule_id AS "ruleId", a.action_index AS "index", a.action, a.status, a.reason,
              a.error_message AS "errorMessage", a.error_code AS "errorCode", a.http_status AS "httpStatus", a.request_id AS "requestId",
              a.duration_ms AS "durationMs", a.started_at AS "startedAt", a.finished_at AS "finishedAt"
         FROM action_results a JOIN runs r ON r.id = a.run_id AND r.trigger_at = a.run_trigger_at WHERE a.run_id = ANY($1::uuid[]) AND ${sameDays('a.run_trigger_at', '$1')}`,
      [runIds],
    );
  }

  /** Action rows in `statuses` of runs in `statuses` (all, or those of `runIds`): what retry-dead would reopen. */
  retryCandidates(statuses: string[], runIds: string[] | null): Promise<RetryCandidate[]> {
    return this.db.query(
      `SELECT a.id, a.run_id AS "runId", a.action ->> 'type' AS type, a.started_at AS "startedAt",
              a.error_code AS "errorCode", a.http_status AS "httpStatus"
         FROM action_results a JOIN runs r ON r.id = a.run_id AND r.trigger_at = a.run_trigger_at
        WHERE a.status = ANY($1) AND r.status = ANY($1) AND ($2::uuid[] IS NULL OR r.id = ANY($2::uuid[]))`,
      [statuses, runIds],
    );
  }

  /**
   * The actions of `types` for a trigger that were sent or may have been (MAYBE_SENT), every rule
   * and contact, with their status: what a replay skips, or a forced one sends again (its confirmation).
   */
  sentOfTrigger(triggerKey: string, types: string[]): Promise<SentForTrigger[]> {
    return this.db.query(
      `SELECT r.rule_id AS "ruleId", r.contact_id AS "contactId", a.action, a.status
         FROM runs r JOIN action_results a ON a.run_id = r.id AND a.run_trigger_at = r.trigger_at
        WHERE r.trigger_key = $1 AND a.status = ANY($3) AND a.action ->> 'type' = ANY($2)
        ORDER BY r.seq, a.action_index`,
      [triggerKey, types, MAYBE_SENT],
    );
  }

  /** Actions of one rule's runs on the given triggers (a sweep's), counted by status. */
  async countsByStatus(ruleId: string, triggerKeys: string[]): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.db.query(
      `SELECT a.status, count(*)::int AS n FROM runs r JOIN action_results a ON a.run_id = r.id AND a.run_trigger_at = r.trigger_at
        WHERE r.trigger_key = ANY($1::text[]) AND r.rule_id = $2 GROUP BY a.status`,
      [triggerKeys, ruleId],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** The admin view of a run's actions, camelCase. */
  forRunView(runId: string): Promise<RunActionView[]> {
    return this.db.query(
      `SELECT action_index AS "index", action, status, reason, error_code AS "errorCode", error_message AS "errorMessage",
              http_status AS "httpStatus", request_id AS "requestId", attempts, started_at AS "startedAt",
              finished_at AS "finishedAt", duration_ms AS "durationMs", saved, target
         FROM action_results WHERE run_id = $1 AND ${sameDay('run_trigger_at', '$1')} ORDER BY action_index`,
      [runId],
    );
  }

  /**
   * When the contact's customer messages (`types`) since `since` began, newest first, at most
   * `limit`: the messaging policy's caps count these. A `running` or `uncertain` send may have
   * reached the customer, so it counts too. Runs that did not act are left out (the partial
   * index IDX_runs_contact_acted: a chatty contact's not_matched runs are most of its runs).
   */
  async messagesSentTo(
    contactId: string,
    types: readonly string[],
    since: Date,
    limit: number,
  ): Promise<Date[]> {
    return (await this.messagesWithCategorySentTo(contactId, types, since, limit)).map((m) => m.at);
  }

  /** As messagesSentTo, with the category each message declared (policy categories). */
  async messagesWithCategorySentTo(
    contactId: string,
    types: readonly string[],
    since: Date,
    limit: number,
  ): Promise<{ at: Date; category?: string }[]> {
    const rows: { started_at: Date; category: string | null }[] = await this.db.query(
      `SELECT a.started_at, a.action->>'category' AS category FROM runs r JOIN action_results a ON a.run_id = r.id AND a.run_trigger_at = r.trigger_at
        WHERE r.contact_id = $1 AND r.status NOT IN ('not_matched', 'suppressed')
          AND a.action->>'type' = ANY($2::text[])
          AND a.status = ANY($5) AND a.started_at > $3
        ORDER BY a.started_at DESC LIMIT $4`,
      [contactId, types, since, limit, MAYBE_SENT],
    );
    return rows.map((r) => ({ at: new Date(r.started_at), ...(r.category ? { category: r.category } : {}) }));
  }

  /**
   * The actions of `types` in the rule's run on the contact for a trigger that were sent or may
   * have been (MAYBE_SENT: succeeded, uncertain, running), as `<index>:<type>` → status. A replay
   * without force skips these (already_sent_for_trigger): an uncertain or interrupted send may
   * have reached the customer, and the engine never sends a message twice on its own.
   */
  async sentForTrigger(
    triggerKey: string,
    ruleId: string,
    contactId: string,
    types: string[],
  ): Promise<Map<string, string>> {
    const rows: { key: string; status: string }[] = await this.db.query(
      `SELECT a.action_index || ':' || (a.action ->> 'type') AS key, a.status
         FROM runs r JOIN action_results a ON a.run_id = r.id AND a.run_trigger_at = r.trigger_at
        WHERE r.trigger_key = $1 AND r.rule_id = $2 AND r.contact_id = $3 AND a.status = ANY($5)
          AND a.action ->> 'type' = ANY($4)`,
      [triggerKey, ruleId, contactId, types, MAYBE_SENT],
    );
    return new Map(rows.map((r) => [r.key, r.status]));
  }
}
