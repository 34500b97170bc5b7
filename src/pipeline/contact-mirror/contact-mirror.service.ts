import { Injectable, Logger } from '@nestjs/common';
import { ContactJournalRepository } from '../../persistence/journal/contact-journal.repository';
import { DataSource } from 'typeorm';
import { CrmReads } from '../../outbound/crm-gateway/crm-reads';
import type { Contact, PageWithTotals } from '@crm-rules/crm-contract';
import { MIRROR_LOCK_KEY, withAdvisoryLock } from '../../persistence/sql/advisory-locks.repository';
import {
  fullSyncDue,
  type MirrorFreshness,
  type MirrorProgress,
  type MirrorRefresh,
  MIRROR_PAGE_SIZE,
  toFreshness,
} from './mirror-policy';
import { fromMirrorRow, mirrorRecords } from './mirror-records';
import { mirrorProblem, type MirroredContact } from '../../language/crm-terms/mirrored-contact';
import type { Queryable } from '../../persistence/sql/queryable';
import { MirrorEventUpserts, type EventContact, type PreviousCapture } from './mirror-event-upserts';
import { ContactMirrorRepository } from './contact-mirror.repository';
import { ContactMirrorStateRepository, type ContactMirrorStateRow } from './contact-mirror-state.repository';
import { ContactMirrorTombstonesRepository } from './contact-mirror-tombstones.repository';

export type ProgressListener = (p: MirrorProgress) => void | Promise<void>;
const BULK = { priority: 'bulk' as const, correlationId: 'contact-mirror' };

type StateRow = ContactMirrorStateRow;

/**
 * The engine's copy of the CRM's contacts. A full sync pages GET /v1/contacts (100 a page,
 * bulk priority) with its cursor in Postgres, committed with each page; incremental refreshes
 * read newest-first down to the watermark; contact.* webhook events keep old contacts current;
 * a periodic full sync catches what neither saw (see docs/SEGMENTS.md "The contact mirror").
 */
@Injectable()
export class ContactMirrorService {
  private readonly logger = new Logger(ContactMirrorService.name);
  private lastEventNoted = 0;
  private readonly eventUpserts: MirrorEventUpserts;
  private readonly contacts: ContactMirrorRepository;
  private readonly state: ContactMirrorStateRepository;
  private readonly tombstones: ContactMirrorTombstonesRepository;

  constructor(
    private readonly dataSource: DataSource,
    private readonly gateway: CrmReads,
    private readonly journal: ContactJournalRepository,
  ) {
    this.contacts = new ContactMirrorRepository(dataSource);
    this.state = new ContactMirrorStateRepository(dataSource);
    this.tombstones = new ContactMirrorTombstonesRepository(dataSource);
    this.eventUpserts = new MirrorEventUpserts(this.contacts);
  }

  /**
   * contact.created / contact.updated upsert the contact; contact.deleted removes it. Answers why
   * the payload was not mirrored (bad dates, a value Postgres refuses), or null: such a payload is
   * skipped, never retried, so the event that carried it still gets matched. With `capture`, the
   * contact before the event is kept on the event and given back in `capture.previous`.
   */
  applyEvent(type: string, contact: EventContact, capture?: PreviousCapture): Promise<string | null> {
    return this.apply(type, contact, capture, false);
  }

  private async apply(
    type: string,
    contact: EventContact,
    capture: PreviousCapture | undefined,
    engineWrite: boolean,
  ): Promise<string | null> {
    if (!contact?.id || !type.startsWith('contact.')) return null;
    if (type === 'contact.deleted') {
      await this.dataSource.transaction(async (tx) => {
        await this.tombstones.in(tx).add(contact.id);
        await this.contacts.in(tx).delete(contact.id);
      });
    } else {
      const problem = mirrorProblem(contact as Contact);
      if (problem) return problem;
      try {
        const previous = await this.eventUpserts.upsert({ contact: contact as Contact, ...capture });
        if (capture) capture.previous = previous;
      } catch (err) {
        if (!isDataError(err)) throw err;
        return `contact ${contact.id}: Postgres refused the payload (${(err as Error).message})`;
      }
    }
    // For the contact timeline (the mirror keeps only the latest state): the engine's own writes and
    // deletions. A webhook's update is not noted: its inbox row already is the timeline's record of
    // it (the delivery step names the version), and a second row per contact event was a third of
    // an unmatched event's storage (issue 35). Syncs are not noted either: bulk.
    // A version's note is dated by the version (the journal's day partition is in its unique key:
    // a note of a version noted before, by an older engine's webhook path, collides and is dropped).
    if (type === 'contact.deleted')
      this.journal.note({ contactId: contact.id, kind: 'mirror.deleted', detail: { source: type } });
    else if (engineWrite) {
      const version = versionTime(contact.updatedAt);
      this.journal.note({
        contactId: contact.id,
        kind: 'mirror.updated',
        detail: { source: 'engine write', updatedAt: contact.updatedAt },
        ...(version ? { at: version } : {}),
      });
    }
    await this.noteEvent();
    return null;
  }

  /**
   * The answer of the engine's own write: the contact before it is kept for the CRM's webhook of
   * that write (docs/RULES.md, change operators), then the mirror takes the answer. Engine writes
   * only: events the engine did not write take applyEvent alone.
   */
  async applyEngineWrite(contact: Contact): Promise<string | null> {
    if (contact?.id && typeof contact.updatedAt === 'string')
      await this.contacts.noteEngineWrite(contact.id, contact.updatedAt);
    return this.apply('contact.updated', contact, undefined, true);
  }

  /** The contact as the mirror last saw it (webhooks, write responses, syncs), if mirrored. */
  async find(contactId: string, db: Queryable = this.dataSource): Promise<Contact | undefined> {
    return (await this.contacts.in(db).findRaw(contactId)) as Contact | undefined;
  }

  /**
   * Freshness bookkeeping on the one state row, at most once a second per process: every event
   * writing that row would serialise all event processing on its lock.
   */
  private async noteEvent(): Promise<void> {
    const now = Date.now();
    if (now - this.lastEventNoted < 1000) return;
    this.lastEventNoted = now;
    await this.state.noteEvent();
  }

  /**
   * Brings the mirror up to date: resumes or starts a full sync when one is due, else reads the
   * new contacts. Concurrent callers queue on one Postgres lock; a caller that waited while
   * another refreshed does not refresh again.
   */
  async refresh(
    onProgress: ProgressListener = () => undefined,
    now = () => new Date(),
  ): Promise<MirrorRefresh> {
    const requestedAt = now();
    const outcome = await withAdvisoryLock(this.dataSource, MIRROR_LOCK_KEY, true, async () => {
      const state = await this.state.load();
      const last = Math.max(
        state.last_full_sync_at?.getTime() ?? 0,
        state.last_incremental_at?.getTime() ?? 0,
      );
      if (state.full_sync_page === null && last >= requestedAt.getTime())
        return { kind: 'shared' as const, listCalls: 0 };
      return fullSyncDue(toFreshness(state, 0), now())
        ? this.fullSync(state, onProgress)
        : this.incremental(state, onProgress);
    });
    return outcome.acquired ? outcome.value : { kind: 'shared', listCalls: 0 };
  }

  async freshness(): Promise<MirrorFreshness> {
    const state = await this.state.load();
    return toFreshness(state, await this.contacts.count());
  }

  private async fullSync(start: StateRow, onProgress: ProgressListener): Promise<MirrorRefresh> {
    let state = start;
    if (state.full_sync_page === null) {
      state = await this.state.startFullSync();
      this.logger.log(`full sync ${state.full_sync_generation} of the contact mirror started`);
    } else {
      this.logger.log(`full sync ${state.full_sync_generation} resumes at page ${state.full_sync_page}`);
    }
    let page = state.full_sync_page!;
    let calls = 0;
    let next = this.listPage(page);
    for (;;) {
      const res = await next;
      calls++;
      const more = res.hasNext && res.data.length > 0;
      // Page n+1 is read while page n is written: the CRM's answer time and the upsert overlap.
      // Only a page the previous one says exists is read, so the calls stay exactly one per page.
      if (more) next = this.listPage(page + 1);
      // The page and the cursor commit together (one statement, one round trip): a crash redoes
      // at most the pages in flight (two).
      if (res.data.length)
        await this.state.fullSyncPage(
          JSON.stringify(mirrorRecords(res.data)),
          state.full_sync_generation,
          page + 1,
          res.total,
          newestCreatedAt(res),
        );
      else await this.state.fullSyncEmptyPage(page + 1, res.total);
      await onProgress({ kind: 'full', pagesDone: page, pagesTotal: res.totalPages, contacts: res.total });
      if (!more) break;
      page++;
    }
    const purged = await this.finishFullSync(state.full_sync_generation);
    this.logger.log(
      `full sync ${state.full_sync_generation} done: ${page} page(s) read, ${purged} contact(s) gone from the CRM purged`,
    );
    return { kind: 'full', listCalls: calls, pagesRead: page, purged };
  }

  /** A page of the full sync; its failure is handled where it is awaited (not unhandled meanwhile). */
  private listPage(page: number): Promise<PageWithTotals<Contact>> {
    const read = this.gateway.listContacts({ page, limit: MIRROR_PAGE_SIZE }, BULK);
    read.catch(() => undefined);
    return read;
  }

  /**
   * Rows this sync did not see and nobody touched since it began are gone from the CRM, but
   * only when the sync saw at least as many contacts as the CRM reported: a deletion during
   * the sync shifts pages, and then a contact may have been missed rather than deleted.
   */
  private async finishFullSync(generation: number): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const s = await this.state.in(tx).lock();
      const seen = await this.contacts.in(tx).countSeenBy(generation);
      let purged = 0;
      if (seen >= (s.full_sync_total ?? 0))
        purged = await this.contacts.in(tx).purgeUnseen(generation, s.full_sync_started_at);
      await this.state.in(tx).finishFullSync();
      await this.tombstones.in(tx).deleteExpired();
      return purged;
    });
  }

  /** Newest first (the list's default order) until a contact older than the watermark shows. */
  private async incremental(state: StateRow, onProgress: ProgressListener): Promise<MirrorRefresh> {
    const watermark = state.watermark_created_at?.getTime() ?? 0;
    let page = 1;
    for (;;) {
      const res = await this.gateway.listContacts({ page, limit: MIRROR_PAGE_SIZE }, BULK);
      const reachedOld = res.data.some((c) => new Date(c.createdAt).getTime() < watermark);
      await this.dataSource.transaction(async (tx) => {
        if (res.data.length) await this.contacts.in(tx).upsert(JSON.stringify(mirrorRecords(res.data)), 0);
        await this.state.in(tx).incrementalPage(newestCreatedAt(res));
      });
      await onProgress({ kind: 'incremental', pagesDone: page, pagesTotal: null, contacts: res.total });
      if (reachedOld || !res.hasNext || res.data.length === 0) break;
      page++;
    }
    await this.state.finishIncremental();
    return { kind: 'incremental', listCalls: page, pagesRead: page, purged: 0 };
  }

  /** Mirrored contacts with an id after `afterId`, by id: a page of the toolchain's export. */
  async exportPage(afterId: string, limit: number): Promise<MirroredContact[]> {
    return (await this.contacts.pageAfter(afterId, limit)).map(fromMirrorRow);
  }
}

/** SQLSTATE class 22: the data itself is invalid for its type (it would be on every attempt). */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('22');
}

function newestCreatedAt(res: PageWithTotals<Contact>): string | null {
  let newest: number | null = null;
  for (const c of res.data) {
    const t = new Date(c.createdAt).getTime();
    if (!Number.isNaN(t) && (newest === null || t > newest)) newest = t;
  }
  return newest === null ? null : new Date(newest).toISOString();
}

/** The time of a contact version (its `updatedAt`), or null when it does not read as one. */
export function versionTime(updatedAt: unknown): Date | null {
  if (typeof updatedAt !== 'string') return null;
  const at = new Date(updatedAt);
  return Number.isNaN(at.getTime()) ? null : at;
}
