// Group commit for the intake, over the shared MicroBatcher (adaptive batches, several inserts in
// flight): deliveries that arrive together are written with one INSERT and enqueued with one
// events job. Each delivery still gets its answer only after its row is committed.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MicroBatcher } from '../../persistence/sql/micro-batcher';
import { InboxEventsRepository } from '../../persistence/ledger/inbox-events.repository';
import type { InboxIntake, NewInboxEvent } from '../../persistence/ledger/inbox-intake.repository';

/** One delivery to store (its exact JSON text, key, type and contact). */
export type InboxRow = NewInboxEvent;
export interface Stored {
  id: string;
  duplicate: boolean;
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
  private readonly inbox: InboxIntake;
  private readonly batcher: MicroBatcher<InboxRow, Stored>;

  constructor(
    db: DataSource,
    /** `batchKey`: stored with the rows, names the events job that carries them. */
    private readonly onInserted: (rows: { id: string; row: InboxRow }[], batchKey: string) => void,
    /** At most the pool's size: an insert in flight holds a connection. */
    maxInFlight = DEFAULT_MAX_IN_FLIGHT,
  ) {
    this.inbox = new InboxEventsRepository(db).intake;
    this.batcher = new MicroBatcher((rows) => this.write(rows), {
      maxBatch: MAX_BATCH,
      maxInFlight,
      // One payload Postgres cannot store (a lone surrogate escape, JSON nested too deep, a key
      // too long for its index) must not fail its neighbours; any other error (Postgres down)
      // fails the whole batch at once. Only a failed INSERT pays for this: the happy path is one.
      splitOnError: isRefusedPayload,
    });
  }

  store(row: InboxRow): Promise<Stored> {
    return this.batcher.submit(row);
  }

  private async write(rows: InboxRow[]): Promise<Stored[]> {
    try {
      return await this.writeBatch(rows);
    } catch (err) {
      throw rows.length === 1 && isRefusedPayload(err) ? new UnstorablePayloadError(err) : err;
    }
  }

  private async writeBatch(rows: InboxRow[]): Promise<Stored[]> {
    // Durable before the 2xx: committed synchronously (the intake's pool, src/pipeline/intake/intake-db.ts).
    const batchKey = randomUUID();
    const inserted = await this.inbox.insertOnSynchronousSession(rows, batchKey);
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
    const stored = rows.map((row): Stored => {
      const id = ids.get(row.key);
      if (!id) return { id: existing.get(row.key) ?? '', duplicate: true };
      // Two copies in one batch: the first is new, the second a duplicate of it.
      ids.delete(row.key);
      existing.set(row.key, id);
      fresh.push({ id, row });
      return { id, duplicate: false };
    });
    if (fresh.length) this.onInserted(fresh, batchKey);
    return stored;
  }
}

/**
 * The SQLSTATE classes of an INSERT refused for what one row holds, never for the state of the
 * server: 22 (data exception: a lone surrogate 22P05, a number out of range 22003, bad UTF-8
 * 22021) and 54 (program limit exceeded: JSON nested too deep 54001, an event id too long for
 * its unique index 54000). Postgres down, a timeout or a full disk belong to other classes.
 */
export function isRefusedPayload(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('54'));
}

/** A delivery whose payload Postgres refuses: the sender's fault, answered 400, not 503. */
export class UnstorablePayloadError extends Error {
  constructor(cause: unknown) {
    super(`payload cannot be stored: ${(cause as Error)?.message ?? cause}`);
    this.name = 'UnstorablePayloadError';
  }
}
