// The intake's group commit against a real Postgres: batches grow with the load instead of one
// INSERT per event-loop turn, never more than its maxInFlight inserts at once, and no delivery is
// acknowledged from a session that commits asynchronously.
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../src/runtime/config/app-config';
import { dataSourceOptions } from '../../../src/persistence/schema/data-source';
import { dropDatabase } from '../../../src/persistence/schema/migrate';
import { InboxBatcher, type InboxRow } from '../../../src/pipeline/intake/inbox-batcher';

const MAX_IN_FLIGHT = 2;
import { intakeDbProvider } from '../../../src/pipeline/intake/intake-db';
import { testDatabaseUrl } from '../../support/test-db';

// CRM events carry their time (the inbox's partition key): one autocommit INSERT per batch.
const CREATED_AT = '2026-11-28T10:00:00.000Z';
const row = (key: string): InboxRow => ({
  key,
  type: 'contact.updated',
  payloadJson: `{"id":"${key}","type":"contact.updated","createdAt":"${CREATED_AT}","data":{}}`,
  contactId: null,
  eventAt: new Date(CREATED_AT),
});

/** The real DataSource, with the inbox inserts it runs counted (and how many ran at once), each held 5 loop turns. */
function counting(db: DataSource) {
  const stats = { inserts: 0, running: 0, mostAtOnce: 0 };
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return async (sql: string, params?: unknown[]) => {
        const insert = sql.includes('INSERT INTO inbox_events');
        if (insert) {
          stats.inserts++;
          stats.mostAtOnce = Math.max(stats.mostAtOnce, ++stats.running);
        }
        try {
          const result = await target.query(sql, params);
          // An insert is answered no sooner than 5 event-loop turns after it was sent: how many
          // INSERTs 300 turns of deliveries take then depends on loop turns, not on how fast this
          // machine's Postgres happens to answer (at most 2 in flight per 5 turns: about 120).
          if (insert) for (let turn = 0; turn < 5; turn++) await new Promise((r) => setImmediate(r));
          return result;
        } finally {
          if (insert) stats.running--;
        }
      };
    },
  });
  return { db: proxy, stats };
}

describe('intake group commit', () => {
  let url: string;
  let intakeDb: DataSource;

  beforeAll(async () => {
    url = await testDatabaseUrl();
    const factory = intakeDbProvider as { useFactory: (c: Partial<AppConfig>) => Promise<DataSource> };
    intakeDb = await factory.useFactory({ databaseUrl: url, intakeDbPoolSize: 5 });
  });
  afterAll(async () => {
    await intakeDb?.destroy();
    if (url) await dropDatabase(url);
  });

  it('grows its batches while inserts are in flight: 300 deliveries over 300 loop turns, few INSERTs', async () => {
    const { db, stats } = counting(intakeDb);
    const enqueued: string[] = [];
    const batcher = new InboxBatcher(
      db,
      (rows) => enqueued.push(...rows.map((r) => r.row.key)),
      MAX_IN_FLIGHT,
    );
    const keys = Array.from({ length: 300 }, (_, i) => `test:batch:${i}:${Date.now()}`);
    const stored: Promise<unknown>[] = [];
    for (const key of keys) {
      stored.push(batcher.store(row(key)));
      await new Promise((r) => setImmediate(r)); // one delivery per event-loop turn
    }
    const results = await Promise.all(stored);
    expect(results).toEqual(keys.map(() => ({ id: expect.any(String), duplicate: false })));
    expect(enqueued.sort()).toEqual([...keys].sort());
    const [{ n }] = await intakeDb.query(
      `SELECT count(*)::int AS n FROM inbox_events WHERE event_key = ANY($1)`,
      [keys],
    );
    expect(n).toBe(300);
    // One INSERT per turn would be 300; while MAX_IN_FLIGHT inserts run, arrivals wait together.
    expect(stats.mostAtOnce).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(stats.inserts).toBeLessThan(150);
  });

  it('writes a lone delivery at once: its INSERT is issued when the loop turn ends, no timer', async () => {
    const { db, stats } = counting(intakeDb);
    const batcher = new InboxBatcher(db, () => undefined);
    const stored = batcher.store(row(`test:alone:${Date.now()}`));
    expect(stats.inserts).toBe(0); // gathered with whatever else arrives in this turn
    // Immediates run in order: the batcher's, scheduled by store(), runs before this one. A timer
    // of any length would not have fired yet.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stats.inserts).toBe(1);
    await expect(stored).resolves.toEqual({ id: expect.any(String), duplicate: false });
    expect(stats.inserts).toBe(1);
  });

  it('acknowledges nothing committed by a session with asynchronous commit (the app pool)', async () => {
    const appDb = await new DataSource(dataSourceOptions(url, {}, 2)).initialize();
    try {
      const batcher = new InboxBatcher(appDb, () => undefined);
      await expect(batcher.store(row(`test:async:${Date.now()}`))).rejects.toThrow(/asynchronously/);
    } finally {
      await appDb.destroy();
    }
  });
});
