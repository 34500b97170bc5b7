// Fixture: a pure file of execution, imported by matching (downstream: allowed).
export const LIMIT = 1;
