// The journal's partitioning on a database filled by the schema before it: every row of the ledger
// is still there, unchanged and readable by the repositories; dedupe still refuses a resend of an
// old delivery and a second note of an old contact version; retention then drops whole days and
// keeps the rest.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { dropDatabase } from '../../../src/persistence/schema/migrate';
import { databaseBefore } from '../../support/schema-before';
import { ContactJournalRepository } from '../../../src/persistence/journal/contact-journal.repository';
import { InboxIntake } from '../../../src/persistence/ledger/inbox-intake.repository';
import { LedgerPartitionMaintenance } from '../../../src/persistence/partitions/ledger-partition-maintenance';

const PARTITION_MIGRATION = 1795884123819;
const TABLES = ['inbox_events', 'runs', 'action_results', 'contact_journal'];
const DAY_MS = 86_400_000;
const CONTACT = '5f0c2a9e-0000-4000-8000-000000000001';

describe('contact_journal partitioned by day: migration of a filled database', () => {
  let url: string;
  let ds: DataSource;
  const before = new Map<string, unknown[]>();
  const snapshot = (table: string) => ds.query(`SELECT * FROM ${table} ORDER BY id`);
  const daysAgo = (d: number) => new Date(Date.now() - d * DAY_MS);

  beforeAll(async () => {
    ({ url, ds } = await databaseBefore(PARTITION_MIGRATION));
    expect(
      (await ds.query(`SELECT relkind FROM pg_class WHERE relname = 'contact_journal'`))[0].relkind,
    ).toBe('r');

    const [event] = await ds.query(
      `INSERT INTO inbox_events (event_key, type, payload, status, contact_id, received_at, processed_at)
       VALUES ('id:evt_old_1', 'contact.updated', '{"id":"evt_old_1"}', 'processed', $1, $2, $2) RETURNING id`,
      [CONTACT, daysAgo(3)],
    );
    await ds.query(
      `INSERT INTO inbox_events (event_key, type, payload, contact_id) VALUES ('id:evt_old_2', 'contact.updated', '{}', $1)`,
      [CONTACT],
    );
    const run = (status: string, extra = '') =>
      ds.query(
        `INSERT INTO runs (trigger_key, inbox_event_id, rule_id, rule_version, rule_set_version, contact_id, status,
                           trace, actions, priority, created_at${extra ? ', waiting_until' : ''})
         VALUES ($1, $2, 'r1', 'v1', 'rs1', $3, $4, '{}', '[{"add-tag":"vip"}]', 'interactive', $5${extra ? ', $6' : ''})
         RETURNING id`,
        [`event:${event.id}:${status}`, event.id, CONTACT, status, daysAgo(3), ...(extra ? [extra] : [])],
      );
    const [done] = await run('succeeded');
    await run('waiting', new Date(Date.now() + DAY_MS).toISOString());
    await ds.query(
      `INSERT INTO action_results (run_id, action_index, action, status) VALUES ($1, 0, '{"add-tag":"vip"}', 'succeeded')`,
      [done.id],
    );
    for (let i = 0; i < 40; i++) {
      await ds.query(`INSERT INTO contact_journal (contact_id, kind, detail, at) VALUES ($1, $2, $3, $4)`, [
        CONTACT,
        i % 2 ? 'mirror.updated' : 'crm.call',
        JSON.stringify(i % 2 ? { source: 'contact.updated', updatedAt: daysAgo(i).toISOString() } : { i }),
        new Date(daysAgo(i).getTime() + 1000),
      ]);
    }
    for (const t of TABLES) before.set(t, await snapshot(t));
    await ds.runMigrations();
  });

  afterAll(async () => {
    await ds?.destroy();
    if (url) await dropDatabase(url);
  });

  it('turns the journal into a partitioned table whose past is the old table, attached', async () => {
    const [{ relkind }] = await ds.query(`SELECT relkind FROM pg_class WHERE relname = 'contact_journal'`);
    expect(relkind).toBe('p');
    const view = await new LedgerPartitionMaintenance(ds).view();
    expect(view.find((t) => t.table === 'contact_journal')).toEqual(
      expect.objectContaining({
        days: 3,
        defaultRows: 0,
        others: ['contact_journal_default', 'contact_journal_legacy'],
      }),
    );
  });

  it.each(TABLES)('keeps every row of %s as it was', async (table) => {
    // Columns that later migrations add (e.g. inbox_events.unmatched) are not part of "as it was".
    const was = before.get(table) as Record<string, unknown>[];
    const columns = Object.keys(was[0] ?? {});
    const now = (await snapshot(table)) as Record<string, unknown>[];
    expect(now.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])))).toEqual(was);
  });

  it('reads the old entries through the journal repository, newest last', async () => {
    const rows = await new ContactJournalRepository(ds).forContact(CONTACT, 100);
    expect(rows).toHaveLength(40);
    expect(rows.at(-1)!.at.getTime()).toBeGreaterThan(rows[0].at.getTime());
  });

  it('still refuses a resend of an old delivery', async () => {
    const rows = [{ key: 'id:evt_old_1', type: 'contact.updated', payloadJson: '{}', contactId: CONTACT }];
    expect(await new InboxIntake(ds).insertOnSynchronousSession(rows, randomUUID())).toEqual([]);
  });

  it('still notes one version of a contact once, an old version and a new one', async () => {
    const journal = new ContactJournalRepository(ds);
    const old = daysAgo(5).toISOString();
    const [oldNote] = (before.get('contact_journal') as { detail: { updatedAt?: string } }[]).filter(
      (r) => r.detail.updatedAt,
    );
    const fresh = new Date().toISOString();
    for (const updatedAt of [oldNote.detail.updatedAt!, fresh, fresh, old, old]) {
      journal.note({
        contactId: CONTACT,
        kind: 'mirror.updated',
        detail: { updatedAt },
        at: new Date(updatedAt),
      });
    }
    await journal.flush();
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM contact_journal WHERE kind = 'mirror.updated' AND detail->>'updatedAt' = ANY($1)`,
      [[oldNote.detail.updatedAt, fresh, old]],
    );
    expect(n).toBe(3);
  });

  it('drops whole days past the horizon, keeps the later ones and the past', async () => {
    const maintenance = new LedgerPartitionMaintenance(ds);
    const [{ first }] = await ds.query(
      `SELECT min(c.relname) AS first FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'contact_journal'::regclass AND c.relname ~ '_p[0-9]{8}$'`,
    );
    const day = new Date(Date.UTC(+first.slice(-8, -4), +first.slice(-4, -2) - 1, +first.slice(-2)));
    const journal = new ContactJournalRepository(ds);
    for (const at of [day, new Date(day.getTime() + DAY_MS + 5)])
      journal.note({ contactId: CONTACT, kind: 'crm.call', detail: {}, at });
    await journal.flush();
    const legacyRows = Number((await ds.query(`SELECT count(*) AS n FROM contact_journal_legacy`))[0].n);

    const [upkeep] = await maintenance.dropBefore(new Date(day.getTime() + DAY_MS));
    expect(upkeep).toEqual({ table: 'contact_journal', dropped: [first], kept: [], busy: [] });
    const at = async (d: Date) =>
      Number(
        (
          await ds.query(`SELECT count(*) AS n FROM contact_journal WHERE at >= $1 AND at < $2`, [
            d,
            new Date(d.getTime() + DAY_MS),
          ])
        )[0].n,
      );
    expect(await at(day)).toBe(0);
    expect(await at(new Date(day.getTime() + DAY_MS))).toBe(1);
    expect(Number((await ds.query(`SELECT count(*) AS n FROM contact_journal_legacy`))[0].n)).toBe(
      legacyRows,
    );

    // The next tick creates the days ahead again without touching the past.
    await maintenance.createAhead(new Date());
    expect((await maintenance.view())[0].others).toContain('contact_journal_legacy');
  });

  it('keeps a row dated past the days ahead in the DEFAULT partition, and says which day it blocks', async () => {
    const maintenance = new LedgerPartitionMaintenance(ds);
    const ahead = new Date(Date.now() + 10 * DAY_MS);
    const journal = new ContactJournalRepository(ds);
    journal.note({ contactId: CONTACT, kind: 'crm.call', detail: {}, at: ahead });
    await journal.flush();
    expect((await maintenance.view())[0].defaultRows).toBe(1);

    const blocked = await maintenance.createAhead(new Date(ahead.getTime() - 2 * DAY_MS));
    const stamp = ahead.toISOString().slice(0, 10).replace(/-/g, '');
    expect(blocked).toEqual([`contact_journal_p${stamp}`]);
    const view = (await maintenance.view())[0];
    expect(view.lastDay).toBe(new Date(ahead.getTime() + DAY_MS).toISOString().slice(0, 10));
    expect(view.defaultRows).toBe(1);
  });
});
