// Pure parts of retention: where the cutoff falls and how a prune proceeds in batches. No Nest.

export const RETENTION_QUEUE = 'retention';
/** Daily, at a quiet hour; one job per tick whatever the number of scheduler processes. */
export const RETENTION_CRON = '17 3 * * *';
export const RETENTION_SCHEDULER_ID = 'retention-daily';
/** A scheduler's start: the partitioned tables' days ahead, without waiting for the daily tick. */
export const PARTITIONS_JOB = 'partitions';
/** Rows per statement: short transactions, no long lock on the ledger tables. */
export const RETENTION_BATCH = 1_000;

export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
}

/** Calls `deleteBatch` until a batch comes back short; returns how many rows went in all. */
export async function pruneInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  batchSize = RETENTION_BATCH,
  maxBatches = 10_000,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteBatch(batchSize);
    total += n;
    if (n < batchSize) break;
  }
  return total;
}

/**
 * How long a table's rows are kept: the ledger's RETENTION_DAYS, the audit's RETENTION_AUDIT_DAYS,
 * or a console session's own limits (idle timeout, absolute lifetime: its pruner applies both).
 */
export type RetentionHorizon = 'ledger' | 'audit' | 'session';

export interface GrowingTable {
  table: string;
  /** What adds rows to it. */
  grows: string;
  horizon: RetentionHorizon;
  /** Which rows go once past the horizon; the others stay whatever their age. */
  prunes: string;
  /** Deleted with the rows of another table (a foreign key's cascade), not by its own statement. */
  prunedWith?: string;
}

/**
 * Every table that grows with traffic, in the order the daily job prunes them. The one list the
 * retention job, docs/RELIABILITY.md and test/persistence/retention.e2e-spec.ts (which backdates rows of
 * each and checks they go) are built from. A new table that grows: add it here, its owner's
 * @PrunesTable provider (table-pruner.ts; the start fails without it) and its rows in the test
 * (the test asks for them). A table that does not grow belongs in BOUNDED_TABLES; the test fails for a table in
 * neither list.
 */
export const GROWING_TABLES = [
  {
    table: 'runs',
    grows: 'every rule evaluated for a trigger (event or sweep tick) and contact',
    horizon: 'ledger',
    prunes:
      'whole days by trigger_at dropped as partitions with their results, unless a run of the day stays; then finished runs (succeeded, failed, not_matched, suppressed, cancelled) by created_at; dead, uncertain, pending, running and waiting runs stay',
  },
  {
    table: 'action_results',
    grows: 'every action of a run that matched',
    horizon: 'ledger',
    prunes: 'those of pruned runs and of dropped days',
    prunedWith: 'runs',
  },
  {
    table: 'inbox_events',
    grows: 'every webhook delivery (payload and raw body)',
    horizon: 'ledger',
    prunes:
      'whole days by event_at dropped as partitions, unless an event of the day stays; then processed events by received_at; pending and failed events stay',
  },
  {
    table: 'contact_journal',
    grows: 'duplicate deliveries, mirror changes, CRM calls, segment exits (the console timeline)',
    horizon: 'ledger',
    prunes:
      'whole days dropped as partitions (PARTITIONED_TABLES); then entries by at in the legacy past and the DEFAULT partition',
  },
  {
    table: 'segment_sweeps',
    grows: 'every tick of every scheduled rule',
    horizon: 'ledger',
    prunes: 'ended sweeps (succeeded, failed, skipped) by queued_at; queued and running ones stay',
  },
  {
    table: 'contact_mirror_tombstones',
    grows: 'every contact deleted in the CRM',
    horizon: 'ledger',
    prunes: 'tombstones by deleted_at (also pruned after 30 days by a completed full sync)',
  },
  {
    table: 'rule_control_audit',
    grows: 'every pause, resume and shadow change made in the console',
    horizon: 'audit',
    prunes: 'entries by at',
  },
  {
    table: 'console_sessions',
    grows: 'every console login',
    horizon: 'session',
    prunes:
      'sessions idle longer than CONSOLE_SESSION_IDLE_MINUTES or older than CONSOLE_SESSION_MAX_HOURS (already refused; the rows go here)',
  },
] as const satisfies readonly GrowingTable[];

export type GrowingTableName = (typeof GROWING_TABLES)[number]['table'];
/** Tables the job deletes from by a statement of their own (not by a cascade). */
export type PrunedTableName = Exclude<(typeof GROWING_TABLES)[number], { prunedWith: string }>['table'];

/** The tables that do not grow with traffic, and why. */
export const BOUNDED_TABLES: Readonly<Record<string, string>> = {
  schema_migrations: 'one row per migration',
  webhook_subscriptions: 'the engine’s subscriptions (retired ones are deleted at start)',
  enrollments: 'one row per rule and contact, kept for ever: `once` and `at-most` per contact must hold',
  contact_mirror: 'a copy of the CRM’s contacts; a deleted contact leaves it',
  contact_mirror_state: 'one row',
  contact_leases:
    'at most one row per contact, deleted when its job ends (a crashed holder’s row is taken over)',
  segment_rule_state: 'one row per scheduled rule',
  segment_memberships: 'one row per scheduled rule and contact in its segment',
  rule_controls: 'one row per rule',
  rule_set_refs:
    'one row per rule set and commit that judged events (a few per deploy), kept: inbox rows of any kept day name them',
  rule_set_versions:
    'one row per commit fetched (or RULES_DIR content loaded), kept: each run names one and its page shows its YAML',
  demo_marker: 'at most one row, written by the first demo start on an empty database',
  users: 'one row per person given a login: operator-paced, disabled rather than deleted',
  bulk_runs:
    'one row per bulk run (a backfill per activated rule version, or an operator’s run for a list or segment): operator-paced, kept as the trail',
  rule_set_deploy_audit:
    'one row per deploy, refusal, rollback, pin or git outage: operator-paced, kept as the trail',
};

export function retentionCutoffs(
  now: Date,
  days: { ledger: number; audit: number },
  sessionIdleMs = 0,
): Record<RetentionHorizon, Date> {
  return {
    ledger: retentionCutoff(now, days.ledger),
    audit: retentionCutoff(now, days.audit),
    // Informative only: the sessions' pruner applies both of their limits itself.
    session: new Date(now.getTime() - sessionIdleMs),
  };
}
