import type { ContactLeasesRepository } from '../../persistence/ledger/contact-leases.repository';
import { LeaseLostError, withContactLease, type LeaseTiming } from './contact-lease';

/** A lease table in memory and a hand-driven clock and heartbeat: no timers, no waiting. */
function fakes(opts: { renewal?: 'ok' | 'taken' | 'error' } = {}) {
  let clock = 1_000;
  let tick: () => void = () => undefined;
  const held = new Map<string, string>();
  const calls: string[] = [];
  const leases = {
    acquire: async (id: string, holder: string) => {
      calls.push('acquire');
      if (held.has(id)) return false;
      held.set(id, holder);
      return true;
    },
    renew: async () => {
      calls.push('renew');
      if (opts.renewal === 'error') throw new Error('connection refused');
      return opts.renewal !== 'taken';
    },
    release: async (id: string) => void (calls.push('release'), held.delete(id)),
  } as unknown as ContactLeasesRepository;
  const timing: LeaseTiming = {
    ttlMs: 4_000,
    now: () => clock,
    every: (fn) => ((tick = fn), { stop: () => (tick = () => undefined) }),
  };
  const heartbeat = async (advanceMs: number) => {
    clock += advanceMs;
    tick();
    await new Promise((r) => setImmediate(r)); // let the renewal's promise settle
  };
  return { leases, timing, held, calls, heartbeat, advance: (ms: number) => (clock += ms) };
}

describe('withContactLease', () => {
  it('runs the work while holding the lease and releases it at the end', async () => {
    const f = fakes();
    const out = await withContactLease(f.leases, 'c1', async () => f.held.get('c1'), f.timing);
    expect(out.acquired && out.value).toMatch(/:/);
    expect(f.held.size).toBe(0);
    expect(f.calls).toEqual(['acquire', 'release']);
  });

  it('gives up at once when another job holds the contact', async () => {
    const f = fakes();
    f.held.set('c1', 'someone else');
    const work = jest.fn();
    expect(await withContactLease(f.leases, 'c1', work, f.timing)).toEqual({ acquired: false });
    expect(work).not.toHaveBeenCalled();
    expect(f.held.get('c1')).toBe('someone else');
  });

  it('releases the lease when the work throws', async () => {
    const f = fakes();
    const failing = withContactLease(f.leases, 'c1', async () => Promise.reject(new Error('boom')), f.timing);
    await expect(failing).rejects.toThrow('boom');
    expect(f.held.size).toBe(0);
  });

  // ttl 4 s: renewed every 1 s, trusted locally until 3 s after the last renewal was sent.
  it.each([
    { case: 'renewals succeed, 10 s of work', renewal: 'ok', beats: 10, beatMs: 1_000, held: true },
    { case: 'no renewal yet, 2.9 s in', renewal: 'ok', beats: 0, beatMs: 2_900, held: true },
    { case: 'a renewal finds it taken over', renewal: 'taken', beats: 1, beatMs: 1_000, held: false },
    { case: 'renewals fail (Postgres down), 3 s in', renewal: 'error', beats: 3, beatMs: 1_001, held: false },
    {
      case: 'renewals fail, 2 s in (still inside the margin)',
      renewal: 'error',
      beats: 2,
      beatMs: 1_000,
      held: true,
    },
    { case: 'event loop blocked for 3.5 s', renewal: 'ok', beats: 0, beatMs: 3_500, held: false },
  ] as const)('$case → held: $held', async ({ renewal, beats, beatMs, held }) => {
    const f = fakes({ renewal });
    const out = await withContactLease(
      f.leases,
      'c1',
      async (lease) => {
        if (beats === 0) f.advance(beatMs);
        for (let i = 0; i < beats; i++) await f.heartbeat(beatMs);
        try {
          lease.assertHeld();
          return true;
        } catch (err) {
          expect(err).toBeInstanceOf(LeaseLostError);
          return false;
        }
      },
      f.timing,
    );
    expect(out).toEqual({ acquired: true, value: held });
  });

  it('does not release a lease another job took over', async () => {
    const f = fakes({ renewal: 'taken' });
    await withContactLease(f.leases, 'c1', () => f.heartbeat(1_000), f.timing);
    expect(f.calls).toEqual(['acquire', 'renew']);
  });
});
