// Queue names, payloads and deterministic job ids. Job ids are ledger ids: the database row,
// not the job, is the truth, so re-adding a job for the same row is harmless.
export const EVENTS_QUEUE = 'events';
export const ACTIONS_QUEUE = 'actions';
export const SWEEPS_QUEUE = 'sweeps';

export interface EventJobData {
  inboxEventId: string;
  correlationId: string;
}
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
export const actionJobId = (runId: string) => `run-${runId}`;
/** The job that wakes a waiting run: one per wake-up time, so it never collides with the run's first job. */
export const wakeJobId = (runId: string, at: Date) => `run-${runId}-at-${at.getTime()}`;

/** Retries of an action job: the gateway already retried transient errors inside one attempt. */
export const ACTION_JOB_ATTEMPTS = 4;

export const actionJobOptions = (runId: string) => ({
  jobId: actionJobId(runId),
  attempts: ACTION_JOB_ATTEMPTS,
  backoff: { type: 'exponential' as const, delay: 1000 },
});
