// The inbox's dedupe on its partitioned table: a delivery with a body time meets its resend in its
// day through the unique (event_key, event_at); one without (a custom source's) is dated by arrival,
// so its resend is found by key under a lock, even when the two arrive at once or days apart.
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../src/runtime/config/app-config';
import { dropDatabase } from '../../../src/persistence/schema/migrate';
import { intakeDbProvider } from '../../../src/pipeline/intake/intake-db';
import { InboxIntake, type NewInboxEvent } from '../../../src/persistence/ledger/inbox-intake.repository';
import { testDatabaseUrl } from '../../support/test-db';

const row = (key: string, eventAt: Date | null): NewInboxEvent => ({
  key,
  type: 'contact.updated',
  payloadJson: `{"id":"${key}","data":{}}`,
  contactId: null,
  eventAt,
});

describe('inbox dedupe across daily partitions', () => {
  let url: string;
  let db: DataSource;
  let inbox: InboxIntake;
  const rowsOf = async (key: string) =>
    Number((await db.query(`SELECT count(*) AS n FROM inbox_events WHERE event_key = $1`, [key]))[0].n);

  beforeAll(async () => {
    url = await testDatabaseUrl();
    const factory = intakeDbProvider as { useFactory: (c: Partial<AppConfig>) => Promise<DataSource> };
    db = await factory.useFactory({ databaseUrl: url, intakeDbPoolSize: 4 });
    inbox = new InboxIntake(db);
  });
  afterAll(async () => {
    await db?.destroy();
    if (url) await dropDatabase(url);
  });

  it('refuses a resend of a delivery with a body time, and stores it on that day', async () => {
    const at = new Date();
    expect(await inbox.insertOnSynchronousSession([row('id:timed-1', at)], crypto.randomUUID())).toHaveLength(
      1,
    );
    expect(await inbox.insertOnSynchronousSession([row('id:timed-1', at)], crypto.randomUUID())).toEqual([]);
    const [stored] = await db.query(`SELECT event_at, tableoid::regclass::text AS part FROM inbox_events
                                       WHERE event_key = 'id:timed-1'`);
    expect(new Date(stored.event_at).getTime()).toBe(at.getTime());
    expect(stored.part).toBe(`inbox_events_p${at.toISOString().slice(0, 10).replace(/-/g, '')}`);
  });

  it('stores one row of a timeless delivery sent twice at once, answered on a synchronous commit', async () => {
    const [a, b] = await Promise.all([
      inbox.insertOnSynchronousSession(
        [row('sha256:twice', null), row('id:other-1', new Date())],
        crypto.randomUUID(),
      ),
      inbox.insertOnSynchronousSession([row('sha256:twice', null)], crypto.randomUUID()),
    ]);
    expect([...a, ...b].filter((r) => r.event_key === 'sha256:twice')).toHaveLength(1);
    expect([...a, ...b].every((r) => r.commit_mode === 'on')).toBe(true);
    expect(await rowsOf('sha256:twice')).toBe(1);
    expect(await rowsOf('id:other-1')).toBe(1);
  });

  it('refuses a timeless resend that comes days later, on another day', async () => {
    // The first delivery, two days back (stored then, on its own day).
    await db.query(
      `INSERT INTO inbox_events (id, event_key, type, payload, event_at)
       VALUES (ledger_uuid(now() - interval '2 days'), 'sha256:late', 'contact.updated', '{}', now() - interval '2 days')`,
    );
    expect(await inbox.insertOnSynchronousSession([row('sha256:late', null)], crypto.randomUUID())).toEqual(
      [],
    );
    expect(await rowsOf('sha256:late')).toBe(1);
  });

  it('refuses a row whose id names another day than its time: a look-up by id reads that day only', async () => {
    await expect(
      db.query(
        `INSERT INTO inbox_events (id, event_key, type, payload, event_at)
         VALUES (ledger_uuid(now() - interval '1 day'), 'id:wrong-day', 'contact.updated', '{}', now())`,
      ),
    ).rejects.toThrow(/CHK_inbox_events_id_day/);
  });
});
