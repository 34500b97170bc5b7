// What the timing gates write through while the runner holds the contact's lease, and what a gate
// tells the runner to do with the action.
import type { ActionResultsRepository } from '../../../persistence/ledger/action-results.repository';
import type { RunsRepository } from '../../../persistence/ledger/runs.repository';

/** The ledger of a run, used while the runner holds the contact's lease. */
export interface TimingLedger {
  runs: RunsRepository;
  actions: ActionResultsRepository;
}

/** go: execute the action; skip: it was skipped (recorded); stop: the run sleeps or was cancelled. */
export type GateOutcome = 'go' | 'skip' | 'stop';
