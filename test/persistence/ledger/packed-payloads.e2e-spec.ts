// An event no rule matched keeps its payload packed once processed (issue 35 goal 1): the row's
// jsonb goes, the packed bytes stay, and every reader of the table still hands out the payload as
// JSON: the events worker, the console's event page and timeline, explain, the export and replays.
import { randomUUID } from 'node:crypto';
import { recordUnmatchedEvents, type NewRun } from '../../../src/pipeline/admission/create-run';
import { InboxEventsRepository } from '../../../src/persistence/ledger/inbox-events.repository';
import type { RuleDefinition } from '../../../src/language/rules/format/rule-types';
import { createTestDb, type TestDb } from '../../support/test-db';

jest.setTimeout(60_000);

const CONTACT_ID = randomUUID();

function contactEvent(updatedAt: string): Record<string, unknown> {
  return {
    id: `evt_${randomUUID()}`,
    data: {
      id: CONTACT_ID,
      name: 'Ana "the" Öster',
      tags: [{ id: randomUUID(), name: 'new-contact', color: '#03a9f4' }],
      email: null,
      notes: null,
      phone: '14150100414',
      avatar: null,
      status: 'active',
      stageId: randomUUID(),
      createdAt: '2024-12-16T09:33:49.206Z',
      isBlocked: false,
      updatedAt,
      assigneeId: null,
      customFields: { plan: 'free' },
      sourceMethod: 'WIDGET',
      lastInteractionAt: '2026-10-25T09:33:49.620Z',
    },
    type: 'contact.updated',
    createdAt: updatedAt,
  };
}

function notMatched(inboxEventId: string): NewRun {
  const rule = { id: 'rule-a', version: 'v1', actions: [] } as unknown as RuleDefinition;
  return {
    triggerKey: `event:${inboxEventId}`,
    triggerAt: new Date(),
    inboxEventId,
    eventType: 'contact.updated',
    priority: 'interactive',
    rule,
    ruleSetVersion: 'set1',
    contactId: CONTACT_ID,
    evaluation: { ruleId: 'rule-a', ruleVersion: 'v1', matched: false, trace: [], actions: [], mode: 'live' },
    contactSnapshot: null,
    correlationId: 'corr',
  } as unknown as NewRun;
}

let db: TestDb;
let inbox: InboxEventsRepository;
beforeAll(async () => {
  db = await createTestDb();
  inbox = new InboxEventsRepository(db.dataSource.manager);
});
afterAll(() => db.drop());

async function stored(payload: Record<string, unknown>): Promise<string> {
  const [row] = await db.dataSource.query(
    `INSERT INTO inbox_events (event_key, type, payload, contact_id) VALUES ($1, 'contact.updated', $2, $3) RETURNING id`,
    [`id:${String(payload.id)}`, JSON.stringify(payload), CONTACT_ID],
  );
  return row.id;
}

async function recordedUnmatched(payload: Record<string, unknown>): Promise<string> {
  const id = await stored(payload);
  expect(
    await recordUnmatchedEvents(db.dataSource, [{ inboxEventId: id, runs: [notMatched(id)], payload }]),
  ).toEqual([true]);
  return id;
}

describe('packed payloads of events no rule matched', () => {
  it('replaces the jsonb with packed bytes of under a third of its size', async () => {
    const payload = contactEvent('2026-11-29T09:34:34.624Z');
    const id = await stored(payload);
    const [before] = await db.dataSource.query(
      `SELECT pg_column_size(payload) AS n FROM inbox_events WHERE id = $1`,
      [id],
    );
    await recordUnmatchedEvents(db.dataSource, [{ inboxEventId: id, runs: [notMatched(id)], payload }]);
    const [after] = await db.dataSource.query(
      `SELECT payload, pg_column_size(payload_packed) AS n, status FROM inbox_events WHERE id = $1`,
      [id],
    );
    expect(after).toMatchObject({ payload: null, status: 'processed' });
    expect(after.n).toBeLessThan(before.n / 3);
  });

  it('hands the payload out as JSON to every reader of the table', async () => {
    const payload = contactEvent('2026-11-29T10:00:00.000Z');
    const id = await recordedUnmatched(payload);
    expect((await inbox.find(id))?.payload).toEqual(payload);
    expect((await inbox.views.show(id))?.payload).toEqual(payload);
    expect(await inbox.views.forExplain(id)).toMatchObject({ payload, unmatched: { set: 'set1', rules: 1 } });
    const page = await inbox.views.pageForExport(
      { since: new Date(0), until: new Date(Date.now() + 60_000) },
      undefined,
      1000,
    );
    expect(page.find((e) => e.id === id)?.payload).toEqual(payload);
    expect(page.every((e) => e.payload !== null)).toBe(true);
    const timeline = await inbox.views.ofContact(CONTACT_ID, 100);
    expect(timeline.find((e) => e.id === id)?.contactVersion).toBe('2026-11-29T10:00:00.000Z');
  });

  it('packs the contact before the event too, and explain and the export read it', async () => {
    const payload = contactEvent('2026-11-29T10:30:00.000Z');
    const previous = {
      contact: { ...(payload.data as object), tags: [], updatedAt: '2026-11-29T10:00:00.000Z' },
    };
    const id = await stored(payload);
    await db.dataSource.query(`UPDATE inbox_events SET previous_contact = $2 WHERE id = $1`, [
      id,
      JSON.stringify(previous),
    ]);
    await recordUnmatchedEvents(db.dataSource, [
      { inboxEventId: id, runs: [notMatched(id)], payload, previous },
    ]);
    const [row] = await db.dataSource.query(
      `SELECT previous_contact, pg_column_size(previous_packed) AS packed FROM inbox_events WHERE id = $1`,
      [id],
    );
    expect(row.previous_contact).toBeNull();
    expect(row.packed).toBeLessThan(JSON.stringify(previous).length / 2);
    expect((await inbox.views.forExplain(id))?.previous_contact).toEqual(previous);
    const page = await inbox.views.pageForExport(
      { since: new Date(0), until: new Date(Date.now() + 60_000) },
      undefined,
      1000,
    );
    expect(page.find((e) => e.id === id)?.previous).toEqual(previous);
  });

  it('replays a packed event as a pending copy whose payload is jsonb again', async () => {
    const payload = contactEvent('2026-11-29T11:00:00.000Z');
    const id = await recordedUnmatched(payload);
    const copy = await inbox.insertReplayCopy(id, 'r1');
    const [row] = await db.dataSource.query(
      `SELECT payload, payload_packed, status, event_key FROM inbox_events WHERE id = $1`,
      [copy],
    );
    expect(row).toEqual({
      payload,
      payload_packed: null,
      status: 'pending',
      event_key: `replay:safe:${id}:r1`,
    });
    // A replay of the replay names the first event, as before.
    const second = await inbox.insertReplayCopy(copy!, 'r2', true);
    const [again] = await db.dataSource.query(`SELECT event_key FROM inbox_events WHERE id = $1`, [second]);
    expect(again.event_key).toBe(`replay:force:${id}:r2`);
    expect(await inbox.insertReplayCopy(randomUUID(), 'r3')).toBeUndefined();
  });

  it('leaves the payload of an event another job claimed as it was', async () => {
    const payload = contactEvent('2026-11-29T12:00:00.000Z');
    const id = await stored(payload);
    await inbox.claimUnmatched(new Map([[id, null]]));
    expect(
      await recordUnmatchedEvents(db.dataSource, [{ inboxEventId: id, runs: [notMatched(id)], payload }]),
    ).toEqual([false]);
    const [row] = await db.dataSource.query(
      `SELECT payload, payload_packed FROM inbox_events WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ payload, payload_packed: null });
  });

  it('packs the payload of an event that ends without runs (no rule listens, contact gone)', async () => {
    const payload = contactEvent('2026-11-29T12:30:00.000Z');
    const id = await stored(payload);
    await inbox.markProcessed(id, 'contact_gone', null, { payload });
    const [row] = await db.dataSource.query(
      `SELECT payload, payload_packed IS NOT NULL AS packed, status, outcome FROM inbox_events WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ payload: null, packed: true, status: 'processed', outcome: 'contact_gone' });
    expect((await inbox.views.show(id))?.payload).toEqual(payload);
    // Without a payload to pack (a custom source's contact not found) the jsonb stays.
    const kept = await stored(contactEvent('2026-11-29T12:40:00.000Z'));
    await inbox.markProcessed(kept, 'contact_not_found', 'no such order');
    const [plain] = await db.dataSource.query(
      `SELECT payload IS NOT NULL AS jsonb FROM inbox_events WHERE id = $1`,
      [kept],
    );
    expect(plain.jsonb).toBe(true);
  });

  it('keeps the jsonb of a payload whose numbers a double cannot hold exactly', async () => {
    const outcome = async (data: string) => {
      const [row] = await db.dataSource.query(
        `INSERT INTO inbox_events (event_key, type, payload, contact_id)
         VALUES ($1, 'custom.orders', $2::jsonb, $3) RETURNING id`,
        [randomUUID(), `{"type": "custom.orders", "data": ${data}}`, CONTACT_ID],
      );
      await inbox.markProcessed(row.id, null, null, { payload: JSON.parse(`{"data": ${data}}`) });
      const [kept] = await db.dataSource.query(
        `SELECT payload::text AS text, payload_packed IS NOT NULL AS packed FROM inbox_events WHERE id = $1`,
        [row.id],
      );
      return kept.packed ? 'packed' : kept.text;
    };
    // Exact in a double: packed.
    expect(await outcome('{"total": 1234.5, "count": 123456789012345, "rate": -0.25}')).toBe('packed');
    // Not: kept as jsonb, every digit as sent.
    expect(await outcome('{"orderId": 12345678901234567890}')).toContain('12345678901234567890');
    expect(await outcome('{"ratio": 0.10000000000000000001}')).toContain('0.10000000000000000001');
    expect(await outcome('{"big": 1e400}')).not.toBe('packed');
  });

  it('refuses a row that keeps its payload neither way', async () => {
    await expect(
      db.dataSource.query(
        `INSERT INTO inbox_events (event_key, type, payload) VALUES ($1, 'contact.updated', NULL)`,
        [randomUUID()],
      ),
    ).rejects.toThrow(/CHK_inbox_events_payload_kept/);
  });

  // Last: it reverts the newest migration of this suite's database.
  it('refuses to revert its migration while a payload is kept packed only', async () => {
    await recordedUnmatched(contactEvent('2026-11-29T13:00:00.000Z'));
    // The migrations after it first (they hold no data), then its own revert, refused.
    for (;;) {
      const [last]: { name: string }[] = await db.dataSource.query(
        `SELECT name FROM schema_migrations ORDER BY timestamp DESC LIMIT 1`,
      );
      if (last.name === 'InboxEventsPackedPayload1796000000000') break;
      await db.dataSource.undoLastMigration();
    }
    await expect(db.dataSource.undoLastMigration()).rejects.toThrow(/keep their payload packed only/);
    await db.dataSource.runMigrations();
    const [{ n }] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM inbox_events WHERE payload IS NULL`,
    );
    expect(n).toBeGreaterThan(0);
  });
});
