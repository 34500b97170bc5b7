// The ledger as one run sees it, and what one action's execution tells the run to do next.
import type { Transactional } from '../../persistence/sql/queryable';
import type { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import type { RunsRepository } from '../../persistence/ledger/runs.repository';

/** The repositories over the pool, each statement only while the contact's lease is held. */
export interface RunRepositories {
  conn: Transactional;
  runs: RunsRepository;
  actions: ActionResultsRepository;
}

/**
 * `next`: go on with the run's next action; `waiting`: the run sleeps (recorded, a delayed job
 * wakes it); otherwise the run ends with that status.
 */
export type ActionOutcome = 'next' | 'waiting' | 'failed' | 'dead' | 'uncertain';

/** A transient failure after the gateway's own retries: the job is retried later. */
export class TransientActionError extends Error {}
