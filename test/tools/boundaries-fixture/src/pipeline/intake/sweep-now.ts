// Fixture: breaks pipeline-flows-downstream (a stage importing the sweeps, a source stage:
// nothing of the pipeline imports them).
import { where } from '../segments/plan-where';

export const sweepNow = () => where();
