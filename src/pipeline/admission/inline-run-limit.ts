// Pure: how many of an event's runs one process executes inline at once (RunDispatchService).

/**
 * Inline executions one process runs at a time. An inline run holds an events job (and waits for
 * the CRM budget like any call): past this many, new runs go to the actions queue, so a slow CRM or
 * a spent budget never takes more than a quarter of the events worker's concurrency (32): the
 * rest keeps matching events and recording their runs.
 */
export const MAX_INLINE_RUNS = 8;

/**
 * A run holds no connection while it waits (its contact's lease is a row, src/pipeline/execution/contact-lease.ts),
 * but each of its ledger statements takes one from the pool the events worker also matches with:
 * inline runs are at most a quarter of the pool, so their statements leave the events' own room.
 * At a run's start its three first statements go side by side (ActionRunnerService.executeRun):
 * for that moment, a millisecond or two, they may take three quarters; a statement that finds the
 * pool busy waits its turn (pg-pool's queue), it does not fail.
 */
export function inlineRunLimit(poolMax: number): number {
  return Math.max(1, Math.min(MAX_INLINE_RUNS, Math.floor(poolMax / 4)));
}
