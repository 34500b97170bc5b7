// Fixture: breaks pipeline-flows-downstream (the sweeps importing matching: a source stage
// imports the stages after admission, never the event path's own stages before it).
import { match } from '../matching/match';

export const matchMembers = () => match();
