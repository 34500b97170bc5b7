// Queue names, payloads and deterministic job ids. Job ids are ledger ids: the database row,
// not the job, is the truth, so re-adding a job for the same row is harmless.
export const EVENTS_QUEUE = 'events';
export const ACTIONS_QUEUE = 'actions';
export const SWEEPS_QUEUE = 'sweeps';
/** Confirmed bulk runs: one job per bulk run creates its runs (src/pipeline/bulk-runs). */
export const BULK_RUNS_QUEUE = 'bulk-runs';

export interface EventJobData {
  inboxEventId: string;
  correlationId: string;
}
/**
 * The events of one intake group commit, processed by one job: one fetch and one finish in Redis
 * and one inbox read for all of them, instead of per event. `correlationIds[i]` is `inboxEventIds[i]`'s.
 */
export interface EventsBatchJobData {
  inboxEventIds: string[];
  correlationIds: string[];
}
/** Job names on the events queue: one event, or an intake batch. */
export const EVENT_JOB = 'event';
export const EVENTS_BATCH_JOB = 'events';

export interface ActionJobData {
  runId: string;
  contactId: string;
  correlationId?: string;
  /** Interactive (event-triggered) or bulk (segment sweeps): the gateway priority. */
  priority: 'interactive' | 'bulk';
  /** Times this job found its contact held by another worker (drives the busy back-off). */
  busyWaits?: number;
}

// BullMQ job ids may not contain ':'.
export const eventJobId = (inboxEventId: string) => `evt-${inboxEventId}`;
/** Named after the batch key stored with each of its events, so the reconciler can find it. */
export const eventsBatchJobId = (batchKey: string) => `evts-${batchKey}`;
export const actionJobId = (runId: string) => `run-${runId}`;
/** The job that wakes a waiting run: one per wake-up time, so it never collides with the run's first job. */
export const wakeJobId = (runId: string, at: Date) => `run-${runId}-at-${at.getTime()}`;

/** Retries of an action job: the gateway already retried transient errors inside one attempt. */
export const ACTION_JOB_ATTEMPTS = 4;

/** The first step of the job's backoff: also the wait after a failed inline attempt. */
export const ACTION_RETRY_DELAY_MS = 1000;

export const actionJobOptions = (runId: string) => ({
  jobId: actionJobId(runId),
  attempts: ACTION_JOB_ATTEMPTS,
  backoff: { type: 'exponential' as const, delay: ACTION_RETRY_DELAY_MS },
});
