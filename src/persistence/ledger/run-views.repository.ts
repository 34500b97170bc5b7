// Read-only views of `runs` for the operator console and the admin API (lists, counts, one run with
// its explain trace), and the ledger's count of a limited rule's slots. Not a repository of its
// own: RunsRepository holds one as `views` (one repository per table, its statements kept in three
// files: writes, views, goals).
import type { Queryable } from '../sql/queryable';
import { attentionSkipSql } from './attention-skip-sql';
import type {
  ContactRunRow,
  RuleBranchBucket,
  RuleBranchCounts,
  RuleRunCounts,
  RunFilter,
  RunListRow,
} from './run-rows';
import { sameDay } from '../partitions/ledger-id';

const LIST_COLUMNS = `id, trigger_key AS "triggerKey", rule_id AS "ruleId", rule_version AS "ruleVersion",
  contact_id AS "contactId", status, reason, mode, created_at AS "createdAt", finished_at AS "finishedAt"`;

/** The views, over the same pool, transaction or connection as the repository that holds them. */
export class RunViews {
  constructor(private readonly db: Queryable) {}

  /** Per rule over a period: matched (acted or tried), not matched, suppressed, paused, failed. */
  countsByRule(since: Date): Promise<RuleRunCounts[]> {
    return this.db.query(
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

  /**
   * A rule's runs since a date that acted (not not_matched / suppressed), in all and per arm taken
   * (the labels of the run's `branch` timeline entries), each with how many reached the goal.
   */
  async branchCounts(ruleId: string, since: Date): Promise<RuleBranchCounts> {
    const acted = `r.rule_id = $1 AND r.created_at >= $2 AND r.status NOT IN ('not_matched', 'suppressed')`;
    // Met while the run waited (it ended goal_reached) or after it succeeded, in its goal window.
    const goal = `count(*) FILTER (WHERE r.reason = 'goal_reached' OR r.goal_reached_at IS NOT NULL)::int AS "goalReached"`;
    const [total]: { runs: number; goalReached: number }[] = await this.db.query(
      `SELECT count(*)::int AS runs, ${goal} FROM runs r WHERE ${acted}`,
      [ruleId, since],
    );
    const arms: RuleBranchCounts['arms'] = await this.db.query(
      `SELECT e->>'label' AS label, count(*)::int AS runs, ${goal}
         FROM runs r CROSS JOIN LATERAL jsonb_array_elements(r.timeline) e
        WHERE ${acted} AND e->>'step' = 'branch'
        GROUP BY 1 ORDER BY 1`,
      [ruleId, since],
    );
    return { ruleId, since: since.toISOString(), ...total, arms };
  }

  /**
   * A rule's acted runs since a date per branch (its index in the rule's branches) and arm label,
   * with goal conversions: two splits with arms of the same name are told apart (split-readouts.ts).
   */
  armCountsByBranch(
    ruleId: string,
    since: Date,
  ): Promise<{ branch: number; label: string; runs: number; goalReached: number }[]> {
    return this.db.query(
      `SELECT (e->>'branch')::int AS branch, e->>'label' AS label, count(*)::int AS runs,
              count(*) FILTER (WHERE r.reason = 'goal_reached' OR r.goal_reached_at IS NOT NULL)::int AS "goalReached"
         FROM runs r CROSS JOIN LATERAL jsonb_array_elements(r.timeline) e
        WHERE r.rule_id = $1 AND r.created_at >= $2 AND r.status NOT IN ('not_matched', 'suppressed')
          AND e->>'step' = 'branch' AND e ? 'branch'
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [ruleId, since],
    );
  }

  /** branchCounts per time bucket of `bucketMs` (by created_at): all runs (label null), then per arm label. */
  async branchBuckets(ruleId: string, since: Date, bucketMs: number): Promise<RuleBranchBucket[]> {
    const rows: { t: string; label: string | null; runs: number; goalReached: number }[] =
      await this.db.query(
        `WITH acted AS (
         SELECT r.timeline, (floor(extract(epoch FROM r.created_at) * 1000 / $3) * $3)::bigint AS t,
                (r.reason = 'goal_reached' OR r.goal_reached_at IS NOT NULL) AS converted
           FROM runs r WHERE r.rule_id = $1 AND r.created_at >= $2 AND r.status NOT IN ('not_matched', 'suppressed'))
       SELECT t, NULL AS label, count(*)::int AS runs, count(*) FILTER (WHERE converted)::int AS "goalReached"
         FROM acted GROUP BY t
       UNION ALL
       SELECT t, e->>'label', count(*)::int, count(*) FILTER (WHERE converted)::int
         FROM acted CROSS JOIN LATERAL jsonb_array_elements(acted.timeline) e
        WHERE e->>'step' = 'branch' GROUP BY 1, 2
       ORDER BY 1, 2 NULLS FIRST`,
        [ruleId, since, bucketMs],
      );
    return rows.map((r) => ({ ...r, t: Number(r.t) }));
  }

  /** The latest runs of every rule (at most `perRule` each), newest first. */
  latestPerRule(since: Date, perRule: number): Promise<RunListRow[]> {
    return this.db.query(
      `SELECT ${LIST_COLUMNS} FROM (
         SELECT *, row_number() OVER (PARTITION BY rule_id ORDER BY created_at DESC) AS n FROM runs WHERE created_at >= $1
       ) ranked WHERE n <= $2 ORDER BY created_at DESC`,
      [since, perRule],
    );
  }

  /** Runs created since, by status; a paused rule's runs count as `paused`. */
  async countsByStatusSince(since: Date): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.db.query(
      `SELECT CASE WHEN status = 'suppressed' AND reason = 'paused' THEN 'paused' ELSE status END AS status,
              count(*)::int AS n
         FROM runs WHERE created_at >= $1 GROUP BY 1`,
      [since],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** The run of a (trigger, rule, contact), unique by UQ_runs_trigger_rule_contact (a manual run's idempotency key). */
  async ofTrigger(
    triggerKey: string,
    ruleId: string,
    contactId: string,
  ): Promise<{ id: string; status: string } | undefined> {
    const [row] = await this.db.query(
      `SELECT id, status FROM runs WHERE trigger_key = $1 AND rule_id = $2 AND contact_id = $3`,
      [triggerKey, ruleId, contactId],
    );
    return row;
  }

  /** Every run of one trigger (an event's page lists them by rule); UQ_runs_trigger_rule_contact leads with the key. */
  ofTriggerKey(triggerKey: string): Promise<{ id: string; ruleId: string; status: string }[]> {
    return this.db.query(
      `SELECT id, rule_id AS "ruleId", status FROM runs WHERE trigger_key = $1 ORDER BY created_at LIMIT 500`,
      [triggerKey],
    );
  }

  /** Runs of one trigger counted by status (a bulk run's progress). */
  async statusCountsOfTrigger(triggerKey: string): Promise<Record<string, number>> {
    const rows: { status: string; n: number }[] = await this.db.query(
      `SELECT status, count(*)::int AS n FROM runs WHERE trigger_key = $1 GROUP BY status`,
      [triggerKey],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** A contact's runs with their traces, the newest `limit`, in time order (contact timeline). */
  ofContact(contactId: string, limit: number): Promise<ContactRunRow[]> {
    return this.db.query(
      `SELECT * FROM (SELECT id, trigger_key AS "triggerKey", rule_id AS "ruleId", rule_version AS "ruleVersion",
                             status, reason, mode, trace, created_at AS "createdAt"
                        FROM runs WHERE contact_id = $1 ORDER BY created_at DESC LIMIT $2) r
        ORDER BY "createdAt"`,
      [contactId, limit],
    );
  }

  list(f: RunFilter): Promise<Record<string, unknown>[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => (params.push(value), `$${params.length}`);
    const add = (sql: string, value: unknown) => where.push(sql.replace('?', param(value)));
    if (f.rule) add('rule_id = ?', f.rule);
    if (f.contact) add('contact_id = ?', f.contact);
    if (f.contacts) add('contact_id = ANY(?::text[])', f.contacts);
    // A paused rule's runs are suppressed with reason `paused`; the console filters them by that name.
    if (f.status === 'paused') add(`status = 'suppressed' AND reason = ?`, 'paused');
    else if (f.status) add('status = ?', f.status);
    else if (f.hideNotMatched) where.push(`status <> 'not_matched'`);
    if (f.since) add('created_at >= ?', f.since);
    if (f.until) add('created_at < ?', f.until);
    // Per listed run only (the limit is applied first): one probe of its few action rows.
    const skipped = f.skipsOf
      ? `, EXISTS (SELECT 1 FROM action_results a WHERE a.run_id = l.id
                   AND ${attentionSkipSql(f.skipsOf, param(f.skipsOf.types))}) AS "messageSkipped"`
      : '';
    const limit = param(f.limit);
    return this.db.query(
      `SELECT l.*${skipped} FROM (
         SELECT id, trigger_key AS "triggerKey", rule_id AS "ruleId", rule_version AS "ruleVersion", contact_id AS "contactId",
                status, reason, mode, priority, created_at AS "createdAt", finished_at AS "finishedAt"
           FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY created_at DESC LIMIT ${limit}) l
        ORDER BY l."createdAt" DESC`,
      params,
    );
  }

  /** One run with its explain trace, for the admin view. */
  async show(id: string): Promise<Record<string, unknown> | undefined> {
    const [run] = await this.db.query(
      `SELECT id, trigger_key AS "triggerKey", inbox_event_id AS "inboxEventId", rule_id AS "ruleId", rule_version AS "ruleVersion",
              rule_set_version AS "ruleSetVersion", rules_commit AS "rulesCommit", contact_id AS "contactId", status, reason, mode, priority, trace, actions,
              correlation_id AS "correlationId", waiting_until AS "waitingUntil", timeline,
              created_at AS "createdAt", finished_at AS "finishedAt"
         FROM runs WHERE id = $1 AND ${sameDay('trigger_at', '$1')}`,
      [id],
    );
    return run;
  }

  /**
   * How many runs of a limited rule took a slot of the period [from, to) (their timeline's `limit`
   * step): the rule's counter as the ledger knows it, for a counter Redis lost. The slot is
   * recorded right after it is taken, so such runs were updated since `from` (less a margin for
   * the clocks), which keeps the scan to the partial index IDX_runs_limited_rule_updated. `from`
   * and `to` are engine times (the timeline's); `fromWallClock` is `from` on Postgres's clock
   * (updated_at), the same instant unless the engine clock is moved (ENGINE_CLOCK_OFFSET_MS).
   */
  async countLimitSlots(ruleId: string, from: Date, to: Date, fromWallClock = from): Promise<number> {
    const [{ n }] = await this.db.query(
      `SELECT count(*)::int AS n FROM runs
        WHERE rule_id = $1 AND timing ? 'limit' AND updated_at >= $2::timestamptz - interval '5 minutes'
          AND jsonb_path_exists(timeline, '$[*] ? (@.step == "limit" && @.at >= $from && @.at < $to)',
                                jsonb_build_object('from', $3::text, 'to', $4::text))`,
      [ruleId, fromWallClock, from.toISOString(), to.toISOString()],
    );
    return n;
  }
}
