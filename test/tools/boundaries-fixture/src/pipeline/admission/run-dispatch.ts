// Fixture: admission's dispatch of created runs (inline or a job).
export type PendingRun = { id: string };

export const dispatch = (runs: PendingRun[]) => runs.length;
