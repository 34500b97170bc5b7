import { fullSyncDue, refreshCallsEstimate, toFreshness, type MirrorFreshness } from './mirror-policy';

const NOW = new Date('2025-06-15T12:00:00Z');
const state = {
  full_sync_page: null as number | null,
  full_sync_generation: 1,
  full_sync_started_at: null,
  full_sync_total: null as number | null,
  last_full_sync_at: new Date('2025-06-15T00:00:00Z') as Date | null,
  watermark_created_at: null,
  last_incremental_at: new Date('2025-06-15T11:00:00Z'),
  last_event_at: new Date('2025-06-15T11:30:00Z'),
  list_calls: '42',
};
const fresh = (over: Partial<typeof state> = {}, contacts = 1234): MirrorFreshness =>
  toFreshness({ ...state, ...over }, contacts);

describe('mirror policy', () => {
  it('reports the freshest of list refreshes and webhook events', () => {
    expect(fresh()).toMatchObject({ freshAt: '2025-06-15T11:30:00.000Z', listCalls: 42, fullSync: null });
  });

  it('needs a full sync before the first one finished, while one is in progress, and once a day', () => {
    expect(fullSyncDue(fresh({ last_full_sync_at: null }), NOW)).toBe(true);
    expect(fullSyncDue(fresh({ full_sync_page: 4 }), NOW)).toBe(true);
    expect(fullSyncDue(fresh({ last_full_sync_at: new Date('2025-06-14T11:59:59Z') }), NOW)).toBe(true);
    expect(fullSyncDue(fresh(), NOW)).toBe(false);
  });

  it('estimates list calls: one for an incremental refresh, the pages left of a full sync', () => {
    expect(refreshCallsEstimate(fresh(), NOW)).toBe(1);
    expect(refreshCallsEstimate(fresh({ last_full_sync_at: null }, 1234), NOW)).toBe(13);
    expect(refreshCallsEstimate(fresh({ full_sync_page: 10, full_sync_total: 1234 }), NOW)).toBe(4);
  });
});
