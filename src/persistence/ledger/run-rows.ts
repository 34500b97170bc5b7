// The projections of `runs` each reader uses, all derived from the table's one row type, RunEntity
// (Pick<> of its members; SnakeRow<> where a statement returns the columns under their own names).
// The statements are in runs.repository.ts and run-views.repository.ts.
import type { SnakeRow } from '../sql/snake-row';
import type { RunEntity } from './run.entity';

/** A run as the action runner works it: with its trigger's payload (message runs need the message). */
export type RunRow = SnakeRow<
  Pick<RunEntity, 'id' | 'ruleId' | 'contactId' | 'status' | 'correlationId' | 'contactSnapshot' | 'priority'>
> &
  /** Waits, windows, limit (null for most rules) and what happened so far. */
  Partial<SnakeRow<Pick<RunEntity, 'timing' | 'timeline'>>> & {
    /** The payload of the inbox event that triggered it (joined), if any. */
    event_payload: { type?: string; data?: unknown } | null;
    /** The original trigger (`event:<id>`) of a replay made without force; null otherwise. */
    replay_of?: string | null;
  };

/** What the action queue needs to (re-)enqueue a run; `waitingUntil` is set for a waiting run. */
export type QueueableRun = Pick<RunEntity, 'id' | 'contactId' | 'correlationId' | 'priority'> &
  Partial<Pick<RunEntity, 'waitingUntil'>>;

/** A new run's columns (the rest are the table's defaults). */
export type RunInsert = Pick<
  RunEntity,
  | 'id'
  | 'triggerKey'
  | 'triggerAt'
  | 'inboxEventId'
  | 'ruleId'
  | 'ruleVersion'
  | 'ruleSetVersion'
  | 'contactId'
  | 'status'
  | 'reason'
  | 'mode'
  | 'priority'
  | 'trace'
  | 'actions'
  | 'contactSnapshot'
  | 'correlationId'
> &
  Partial<Pick<RunEntity, 'timing' | 'rulesCommit'>>;

export interface RunFilter {
  rule?: string;
  contact?: string;
  /** Runs of any of these contacts (a search by name); an empty list matches none. */
  contacts?: string[];
  status?: string;
  /** Leave out `not_matched` runs (the console's default: most runs of a busy rule set). */
  hideNotMatched?: boolean;
  /** Flag each run with a skipped action of `types` for one of `reasons` (`messageSkipped`). */
  skipsOf?: MessageSkipKinds;
  since?: Date;
  until?: Date;
  limit: number;
}

/** Which skipped actions count as a message not sent (language/policy/message-skips.ts). */
export interface MessageSkipKinds {
  types: readonly string[];
  reasons: readonly string[];
  /** Skips of other actions that count too (an assign's pool_full / pool_empty). */
  also?: readonly { type: string; reasons: readonly string[] }[];
}

/** A run in the admin API's and the console's lists. */
export type RunListRow = Pick<
  RunEntity,
  | 'id'
  | 'triggerKey'
  | 'ruleId'
  | 'ruleVersion'
  | 'contactId'
  | 'status'
  | 'reason'
  | 'mode'
  | 'createdAt'
  | 'finishedAt'
> & {
  /** With RunFilter.skipsOf: a customer message of the run was skipped (it "succeeded with skips"). */
  messageSkipped?: boolean;
};

export interface RuleRunCounts {
  ruleId: string;
  matched: number;
  notMatched: number;
  suppressed: number;
  paused: number;
  failed: number;
  lastRunAt: Date | null;
}

/** A run on a contact's timeline, with its explain trace. */
export type ContactRunRow = Pick<
  RunEntity,
  'id' | 'triggerKey' | 'ruleId' | 'ruleVersion' | 'status' | 'reason' | 'mode' | 'trace' | 'createdAt'
>;

/** GET /admin/rules/:id/branches: a rule's runs that acted, per arm taken, with goal conversions. */
export interface RuleBranchCounts {
  ruleId: string;
  since: string;
  runs: number;
  goalReached: number;
  /** Per label of an arm taken (then, else, case:<name>, default, arm:<name>, on-event, on-timeout). */
  arms: { label: string; runs: number; goalReached: number }[];
}

/**
 * A rule's runs that acted per time bucket (created_at, `t` in epoch ms): all of them (label null)
 * and per arm label taken, each with how many reached the goal (the console's chart).
 */
export interface RuleBranchBucket {
  t: number;
  label: string | null;
  runs: number;
  goalReached: number;
}
