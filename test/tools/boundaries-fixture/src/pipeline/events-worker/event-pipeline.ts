// Fixture: breaks no rule (the events worker runs the stages: it may import every one of them).
import { match } from '../matching/match';
import { dispatch } from '../admission/run-dispatch';
import { LIMIT } from '../execution/runner-limits';

export const process = () => dispatch([{ id: String(match(LIMIT)) }]);
