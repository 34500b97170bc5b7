// Fixture: matching naming execution by type only (allowed: a type is not a write), half of a
// folder cycle.
import type { Limit } from '../execution/runner-limits';

export const match = (limit: Limit = 1) => limit;
