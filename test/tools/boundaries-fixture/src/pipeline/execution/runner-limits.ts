// Fixture: a pure file of execution, named by matching by type only (allowed), and loaded by the
// events worker (the coordinator may import every stage).
export type Limit = number;

export const LIMIT: Limit = 1;
