// "Same contact in order, different contacts in parallel" across workers, without holding a
// Postgres connection: a lease row per contact (ContactLeasesRepository), renewed while the job
// runs and released at its end. A killed worker's lease expires at most CONTACT_LEASE_TTL_MS after
// the kill: 3/4 of BullMQ's lock (FAST_RECOVERY.lockDuration), whose expiry plus a stalled check is
// what hands the job to another worker, so the lease (almost never) adds to the recovery time.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ContactLeasesRepository } from '../../persistence/ledger/contact-leases.repository';
import { FAST_RECOVERY } from '../../runtime/queues/worker-options';

export const CONTACT_LEASE_TTL_MS = (FAST_RECOVERY.lockDuration * 3) / 4;

/** The holder missed its renewals (event loop blocked, Postgres unreachable) or the lease was taken over. */
export class LeaseLostError extends Error {}

export interface HeldLease {
  readonly holder: string;
  /** Throws LeaseLostError unless the lease is certainly still ours (checked before every ledger statement). */
  assertHeld(): void;
}

export type LeaseOutcome<T> = { acquired: true; value: T } | { acquired: false };

export interface LeaseTiming {
  ttlMs: number;
  now: () => number;
  every: (fn: () => void, ms: number) => { stop(): void };
}

const realTiming = (ttlMs: number): LeaseTiming => ({
  ttlMs,
  now: Date.now,
  every: (fn, ms) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  },
});

/**
 * Runs `fn` while holding the contact's lease; `{ acquired: false }` at once when another job holds it.
 * Renewed every ttl/4. Locally the lease counts as ours until ttl*3/4 after the last renewal was
 * *sent* (a quarter of the ttl of margin against clock rates and slow answers); past that, or when
 * a renewal finds it taken over, assertHeld() throws and the job stops before its next write.
 */
export async function withContactLease<T>(
  leases: ContactLeasesRepository,
  contactId: string,
  fn: (lease: HeldLease) => Promise<T>,
  timing: LeaseTiming = realTiming(CONTACT_LEASE_TTL_MS),
): Promise<LeaseOutcome<T>> {
  const { ttlMs, now } = timing;
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  const validFor = ttlMs - ttlMs / 4;
  let sentAt = now();
  if (!(await leases.acquire(contactId, holder, ttlMs))) return { acquired: false };
  let heldUntil = sentAt + validFor;
  let lost = false;
  let renewing = false;
  const heartbeat = timing.every(() => {
    if (renewing || lost) return;
    renewing = true;
    sentAt = now();
    const sent = sentAt;
    leases
      .renew(contactId, holder, ttlMs)
      .then((ok) => (ok ? (heldUntil = sent + validFor) : (lost = true)))
      // A failed renewal changes nothing: the lease runs out locally unless a later one succeeds.
      .catch(() => undefined)
      .finally(() => (renewing = false));
  }, ttlMs / 4);
  const lease: HeldLease = {
    holder,
    assertHeld: () => {
      if (lost || now() > heldUntil)
        throw new LeaseLostError(`lost the lease on contact ${contactId}: another job may work on it now`);
    },
  };
  try {
    return { acquired: true, value: await fn(lease) };
  } finally {
    heartbeat.stop();
    // If this fails the lease expires on its own after ttlMs.
    if (!lost) await leases.release(contactId, holder).catch(() => undefined);
  }
}
