// The rules-git queue: one job fetches RULES_GIT_REF, validates and activates (GitRulesSync). Jobs
// come from the push webhook (POST /hooks/git), the interval fallback (one BullMQ job scheduler
// whatever the number of processes) and operators (unpin). Pure names and payloads.
export const RULES_GIT_QUEUE = 'rules-git';
export const RULES_GIT_JOB = 'fetch';
export const RULES_GIT_SCHEDULER_ID = 'rules-git-interval';

export interface RulesGitJobData {
  /** Who asked: `webhook`, `interval`, `unpin by …` (recorded as the activator). */
  actor: string;
}

/** BullMQ job ids may not contain ':'; one pending fetch per trigger key is enough. */
export const rulesGitJobId = (key: string) => `fetch-${key.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100)}`;
