// Fixture: matching importing execution (allowed: downstream), half of a folder cycle.
import { LIMIT } from '../execution/runner-limits';

export const match = () => LIMIT;
