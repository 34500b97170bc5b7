// How long an action job waits before it looks at a busy contact again. The worker holding the
// contact runs every unfinished run of it (this job's too), so a short first wait usually finds the
// work done; repeated waits back off exponentially, with jitter so waiting jobs do not wake together,
// instead of polling at 20 Hz for as long as a long run (budget waits included) holds the contact.
export const BUSY_FIRST_MS = 50;
export const BUSY_MAX_MS = 2_000;

/** Delay before the (waits+1)-th look; `random` in [0, 1) spreads it over [half, full]. */
export function busyBackoffMs(waits: number, random: number = Math.random()): number {
  const full = Math.min(BUSY_MAX_MS, BUSY_FIRST_MS * 2 ** Math.max(0, waits));
  return Math.round(full / 2 + (full / 2) * random);
}
