// Fixture: breaks only-admission-creates-runs (a run created outside admission).
import { createRun } from '../pipeline/admission/create-run';

export const sweep = () => createRun();
