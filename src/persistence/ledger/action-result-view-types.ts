// The row shapes of action_results' read views (action-result-views.repository.ts), each a Pick<>
// of ActionResultEntity under its statement's camelCase aliases, plus the joined run's columns.
import type { ActionResultEntity } from './action-result.entity';
import type { RunEntity } from './run.entity';

export interface AttentionFilter {
  statuses: readonly string[];
  rule?: string;
  /** Only the actions of these runs. */
  runIds?: string[];
  limit: number;
}

/** `action_index` under the name the views give it. */
type ActionIndex = { index: ActionResultEntity['actionIndex'] };

/** The rule and contact of the action's run (joined). */
type OfRun = Pick<RunEntity, 'ruleId' | 'contactId'>;

export type ActionNeedingAttention = Pick<
  ActionResultEntity,
  | 'id'
  | 'runId'
  | 'action'
  | 'status'
  | 'errorCode'
  | 'errorMessage'
  | 'requestId'
  | 'attempts'
  | 'finishedAt'
> &
  ActionIndex &
  OfRun;

export type ContactActionRow = Pick<
  ActionResultEntity,
  | 'runId'
  | 'action'
  | 'status'
  | 'reason'
  | 'errorCode'
  | 'httpStatus'
  | 'requestId'
  | 'durationMs'
  | 'startedAt'
  | 'finishedAt'
> &
  /** A skip's detail (the guard's or the messaging policy's words), or the failure's message. */
  Partial<Pick<ActionResultEntity, 'errorMessage'>> &
  ActionIndex &
  Pick<OfRun, 'ruleId'>;

export type RetryCandidate = Pick<
  ActionResultEntity,
  'id' | 'runId' | 'startedAt' | 'errorCode' | 'httpStatus'
> & {
  /** `action ->> 'type'`. */
  type: string;
};

/** An action on a run's page (the admin API's and the console's): forRunView. */
export type RunActionView = Pick<
  ActionResultEntity,
  | 'action'
  | 'status'
  | 'reason'
  | 'errorCode'
  | 'errorMessage'
  | 'httpStatus'
  | 'requestId'
  | 'attempts'
  | 'startedAt'
  | 'finishedAt'
  | 'durationMs'
  | 'saved'
  | 'target'
> &
  ActionIndex;

/**
 * Statuses of an action that was sent or may have been: `uncertain` (the call's outcome is
 * unknown) and `running` (a call began and its process may have died after the CRM took it).
 */
export const MAYBE_SENT = ['succeeded', 'uncertain', 'running'];

/** A message sent (or maybe sent, see MAYBE_SENT) for a trigger. */
export interface SentForTrigger {
  ruleId: string;
  contactId: string;
  action: unknown;
  status: string;
}

/** A customer message skipped for a reason an operator must see (Needs attention). */
export type SkippedMessage = Pick<ActionResultEntity, 'id' | 'runId' | 'action' | 'reason' | 'finishedAt'> &
  /** The guard's or the policy's words. */
  Pick<ActionResultEntity, 'errorMessage'> &
  ActionIndex &
  OfRun & {
    /** Indexes of the run's later actions that succeeded anyway (a follow-up that assumed the message). */
    laterDone: number[];
  };

/** Which skips: action types and reasons (language/policy/message-skips.ts), skipped since. */
export interface SkippedMessageFilter {
  types: readonly string[];
  reasons: readonly string[];
  /** Skips of other actions that count too (an assign's pool_full / pool_empty). */
  also?: readonly { type: string; reasons: readonly string[] }[];
  since: Date;
  rule?: string;
  /** Only the skips of these runs. */
  runIds?: string[];
}
