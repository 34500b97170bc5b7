// Fixture: breaks pipeline-flows-downstream (execution importing matching, upstream), closing a
// folder cycle with matching (scripts/folder-cycles.js --check fails).
import { match } from '../matching/match';

export const run = () => match();
