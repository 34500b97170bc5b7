// Fixture: breaks pipeline-flows-downstream (a stage importing the events worker, which runs the
// stages: no stage imports it).
import { process } from '../events-worker/event-pipeline';

export const handOver = () => process();
