// Fixture: breaks matching-never-writes (matching loading admission to dispatch runs); the
// type-only import of a run's type is allowed.
import { dispatch, type PendingRun } from '../admission/run-dispatch';

export const hand = (runs: PendingRun[]) => dispatch(runs);
