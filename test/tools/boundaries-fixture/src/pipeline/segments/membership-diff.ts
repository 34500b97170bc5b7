// Fixture: breaks no rule (the sweeps are a source stage: they admit their entries through
// admission and end waits through execution, both downstream).
import type { PendingRun } from '../admission/run-dispatch';
import { endWaits } from '../execution/wait-cancellation';

export const leave = (run: PendingRun) => endWaits(run.id);
