// Every query on contact_journal. Writers call note() on hot paths (intake, matching, runner):
// it never waits and never throws; entries noted in one event-loop turn go in one INSERT.
// A lost entry costs a line of the timeline, never an event or an action.
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedRows } from '../sql/returned-rows';
import type { ContactJournalEntity } from './contact-journal.entity';

export type JournalKind =
  'delivery.duplicate' | 'mirror.updated' | 'mirror.deleted' | 'crm.call' | 'segment.left';

export interface JournalEntry {
  contactId: string;
  kind: JournalKind;
  detail: Record<string, unknown>;
  at?: Date;
}

/** An entry as the timeline reads it. */
export type JournalRow = Pick<ContactJournalEntity, 'kind' | 'at' | 'detail'>;

const MAX_BATCH = 500;

@Injectable()
export class ContactJournalRepository implements OnModuleDestroy {
  private readonly logger = new Logger(ContactJournalRepository.name);
  private queue: JournalEntry[] = [];
  private flushing?: Promise<void>;

  constructor(private readonly db: DataSource) {}

  note(entry: JournalEntry): void {
    this.queue.push({ ...entry, at: entry.at ?? new Date() });
    if (this.queue.length === 1) setImmediate(() => void this.flush());
  }

  /** Writes what is queued; resolves when it is stored (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    const batch = this.queue.splice(0, MAX_BATCH);
    if (batch.length === 0) return;
    this.flushing = this.write(batch).finally(() => (this.flushing = undefined));
    await this.flushing;
    if (this.queue.length) await this.flush();
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }

  /** The newest `limit` entries of a contact, in time order. */
  forContact(contactId: string, limit: number): Promise<JournalRow[]> {
    return this.db.query(
      `SELECT * FROM (SELECT kind, at, detail FROM contact_journal WHERE contact_id = $1 ORDER BY at DESC, id DESC LIMIT $2) j
        ORDER BY at`,
      [contactId, limit],
    );
  }

  /**
   * Retention: up to `limit` entries older than `cutoff` (IDX_contact_journal_at). Whole days go
   * as partitions first (LedgerPartitionMaintenance); what is left is in the legacy and DEFAULT
   * partitions. (id, at): the partitioned table's key.
   */
  async deleteBefore(cutoff: Date, limit: number): Promise<number> {
    return affectedRows(
      await this.db.query(
        `DELETE FROM contact_journal WHERE (id, at) IN (SELECT id, at FROM contact_journal WHERE at < $1 LIMIT $2)`,
        [cutoff, limit],
      ),
    );
  }

  private async write(batch: JournalEntry[]): Promise<void> {
    try {
      await this.db.query(
        // A mirror.updated of a version already noted (the runner's write answer, then the CRM's
        // webhook of the same version) is skipped: UQ_contact_journal_mirror_version.
        `INSERT INTO contact_journal (contact_id, kind, detail, at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::timestamptz[])
         ON CONFLICT DO NOTHING`,
        [
          batch.map((e) => e.contactId),
          batch.map((e) => e.kind),
          batch.map((e) => JSON.stringify(e.detail)),
          batch.map((e) => e.at),
        ],
      );
    } catch (err) {
      this.logger.warn(`${batch.length} journal entries not stored: ${(err as Error).message}`);
    }
  }
}
