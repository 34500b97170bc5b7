/**
 * Worker settings for jobs a killed process must not strand for long. BullMQ finds a dead worker's
 * active jobs only once their lock has expired (lockDuration, renewed every lockDuration / 2 while
 * the worker lives) and a stalled-job check has seen them twice (every stalledInterval): with the
 * defaults (30 s each) work stood still for about a minute after kill -9. With these, a restarted
 * or surviving worker takes them back within about lockDuration + 2 × stalledInterval.
 * A job seen stalled by mistake (an event loop blocked past lockDuration) is harmless: the ledger
 * and the contact lock make a second execution skip what the first did.
 */
export const FAST_RECOVERY = {
  lockDuration: 4_000,
  stalledInterval: 2_000,
  /** Stalled more often than this: the job fails, and the reconciler re-adds its pending work. */
  maxStalledCount: 2,
};
