// Group commit for the intake: deliveries that arrive together are written with one INSERT and
// enqueued with one addBulk. Each delivery still gets its answer only after its row is committed.
// Adaptive: when idle a delivery is written on the next event-loop turn (no timer, ~1 ms); under
// load at most maxInFlight inserts run at once and what arrives meanwhile waits for the next one,
// so batches grow with the load and the per-statement costs (round trip, WAL flush, socket writes,
// the addBulk pipeline) are shared by more deliveries.
import type { DataSource } from 'typeorm';
import { InboxEventsRepository, type NewInboxEvent } from '../ledger/inbox-events.repository';

/** One delivery to store (its exact JSON text, key, type and contact). */
export type InboxRow = NewInboxEvent;
export interface Stored {
  id: string;
  duplicate: boolean;
}

interface Waiting {
  row: InboxRow;
  resolve: (s: Stored) => void;
  reject: (e: unknown) => void;
}

/** Rows per statement: large enough to amortise the round trip, small enough to keep latency flat. */
const MAX_BATCH = 500;
/**
 * Inserts at once, by default. Postgres flushes the WAL of concurrent commits together, so a few
 * inserts in flight keep each delivery's wait short (the CRM and the benchmark hold one request
 * per connection: throughput = connections / latency), while deliveries that arrive when all are
 * busy share the next one. Measured with bench:intake (docs/BENCHMARKS.md): 8 beat 2, 5 and 12.
 */
export const DEFAULT_MAX_IN_FLIGHT = 8;

export class InboxBatcher {
  private queue: Waiting[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly inbox: InboxEventsRepository;

  constructor(
    db: DataSource,
    private readonly onInserted: (rows: { id: string; row: InboxRow }[]) => void,
    /** At most the pool's size: an insert in flight holds a connection. */
    private readonly maxInFlight = DEFAULT_MAX_IN_FLIGHT,
  ) {
    this.inbox = new InboxEventsRepository(db);
  }

  store(row: InboxRow): Promise<Stored> {
    return new Promise<Stored>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.schedule();
    });
  }

  /** setImmediate: collect what arrived in the same event-loop turn, add no timer delay. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length && this.inFlight < this.maxInFlight) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      await this.writeBatch(batch);
    } catch (err) {
      if (!isDataError(err) || batch.length === 1) {
        for (const w of batch) w.reject(isDataError(err) ? new UnstorablePayloadError(err) : err);
        return;
      }
      // One payload Postgres cannot store (e.g. a lone surrogate escape) must not fail its neighbours.
      for (const w of batch) await this.write([w]);
    }
  }

  private async writeBatch(batch: Waiting[]): Promise<void> {
    const rows = batch.map((w) => w.row);
    // Durable before the 2xx: committed synchronously (the intake's pool, src/intake/intake-db.ts).
    const inserted = await this.inbox.insertOnSynchronousSession(rows);
    if (inserted.some((r) => r.commit_mode === 'off'))
      throw new Error(
        'inbox rows were committed asynchronously: the intake pool must use synchronous_commit',
      );
    const ids = new Map(inserted.map((r) => [r.event_key, r.id]));
    const missing = [...new Set(rows.map((r) => r.key).filter((k) => !ids.has(k)))];
    const existing = new Map<string, string>();
    if (missing.length) {
      const found = await this.inbox.idsByKeys(missing);
      for (const f of found) existing.set(f.event_key, f.id);
    }
    const fresh: { id: string; row: InboxRow }[] = [];
    for (const w of batch) {
      const id = ids.get(w.row.key);
      if (id) {
        // Two copies in one batch: the first is new, the second a duplicate of it.
        ids.delete(w.row.key);
        existing.set(w.row.key, id);
        fresh.push({ id, row: w.row });
        w.resolve({ id, duplicate: false });
      } else {
        w.resolve({ id: existing.get(w.row.key) ?? '', duplicate: true });
      }
    }
    if (fresh.length) this.onInserted(fresh);
  }
}

/** SQLSTATE class 22: the data itself is invalid for its type. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('22');
}

/** A delivery whose payload Postgres refuses: the sender's fault, answered 400, not 503. */
export class UnstorablePayloadError extends Error {
  constructor(cause: unknown) {
    super(`payload cannot be stored: ${(cause as Error)?.message ?? cause}`);
    this.name = 'UnstorablePayloadError';
  }
}
