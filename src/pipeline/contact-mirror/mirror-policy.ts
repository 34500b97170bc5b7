// When the mirror needs a full sync, and how fresh it is. Pure.
import type { ContactMirrorStateRow } from './contact-mirror-state.repository';

/** docs/CRM-API.md §8: the contacts list pages at most 100. */
export const MIRROR_PAGE_SIZE = 100;

/**
 * Incremental refreshes see new contacts only (the list is ordered by createdAt); updates to old
 * contacts arrive as contact.updated webhooks. A daily full sync repairs anything both missed
 * (a lost webhook, a deletion while the engine was down) for ceil(N/100) list calls.
 */
export const FULL_RESYNC_INTERVAL_MS = 24 * 3600_000;

export interface MirrorProgress {
  kind: 'full' | 'incremental';
  pagesDone: number;
  /** Known for full syncs (the CRM reports totalPages); null for incremental refreshes. */
  pagesTotal: number | null;
  /** Contacts the CRM reports in total. */
  contacts: number;
}

export interface MirrorRefresh {
  /** shared: another caller refreshed while this one waited for the lock. */
  kind: 'full' | 'incremental' | 'shared';
  listCalls: number;
  pagesRead?: number;
  purged?: number;
}

export interface MirrorFreshness {
  contacts: number;
  /** The full sync in progress (the resumable cursor), if any. */
  fullSync: { nextPage: number; generation: number; startedAt: string | null; total: number | null } | null;
  lastFullSyncAt: string | null;
  lastIncrementalAt: string | null;
  lastEventAt: string | null;
  /** Newest createdAt read from a list: incremental refreshes stop below it. */
  watermarkCreatedAt: string | null;
  /** Most recent of the list refreshes and webhook updates. */
  freshAt: string | null;
  listCalls: number;
}

/** The contact_mirror_state columns freshness is made of. */
export type MirrorStateRow = Pick<
  ContactMirrorStateRow,
  | 'full_sync_page'
  | 'full_sync_generation'
  | 'full_sync_started_at'
  | 'full_sync_total'
  | 'last_full_sync_at'
  | 'watermark_created_at'
  | 'last_incremental_at'
  | 'last_event_at'
  | 'list_calls'
>;

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toFreshness(s: MirrorStateRow, contacts: number): MirrorFreshness {
  const refreshed = [s.last_full_sync_at, s.last_incremental_at, s.last_event_at].filter(
    (d): d is Date => !!d,
  );
  const freshAt = refreshed.length
    ? new Date(Math.max(...refreshed.map((d) => new Date(d).getTime())))
    : null;
  return {
    contacts,
    fullSync:
      s.full_sync_page === null
        ? null
        : {
            nextPage: s.full_sync_page,
            generation: s.full_sync_generation,
            startedAt: iso(s.full_sync_started_at),
            total: s.full_sync_total,
          },
    lastFullSyncAt: iso(s.last_full_sync_at),
    lastIncrementalAt: iso(s.last_incremental_at),
    lastEventAt: iso(s.last_event_at),
    watermarkCreatedAt: iso(s.watermark_created_at),
    freshAt: iso(freshAt),
    listCalls: Number(s.list_calls),
  };
}

/** A full sync is due when one is in progress (resume it), never finished, or older than the interval. */
export function fullSyncDue(f: MirrorFreshness, now: Date, intervalMs = FULL_RESYNC_INTERVAL_MS): boolean {
  if (f.fullSync !== null || f.lastFullSyncAt === null) return true;
  return now.getTime() - new Date(f.lastFullSyncAt).getTime() >= intervalMs;
}

/** List calls the next refresh will make, as far as can be known without making them. */
export function refreshCallsEstimate(f: MirrorFreshness, now: Date): number {
  if (!fullSyncDue(f, now)) return 1;
  const total = f.fullSync?.total ?? f.contacts;
  const pages = Math.max(1, Math.ceil(total / MIRROR_PAGE_SIZE));
  return f.fullSync ? Math.max(1, pages - f.fullSync.nextPage + 1) : pages;
}
