// Fixture: breaks only-admission-creates-runs (a run created outside admission).
import { createRun } from '../admission/create-run';

export const sweep = () => createRun();
