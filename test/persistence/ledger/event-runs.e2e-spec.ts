// The statements that record an event's runs (docs/BENCHMARKS.md: the run transaction folded): the
// inbox claim (lock + processed mark) and the multi-row insert of not-matched runs, which for events
// no rule matched are one statement.
import { randomUUID } from 'node:crypto';
import {
  createUnmatchedRuns,
  recordUnmatchedEvents,
  type NewRun,
} from '../../../src/pipeline/admission/create-run';
import { InboxEventsRepository } from '../../../src/persistence/ledger/inbox-events.repository';
import type { RuleDefinition } from '../../../src/language/rules/format/rule-types';
import { createTestDb, type TestDb } from '../../support/test-db';

jest.setTimeout(60_000);

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.drop());

async function storedEvent(): Promise<string> {
  const [row] = await db.dataSource.query(
    `INSERT INTO inbox_events (event_key, type, payload, contact_id) VALUES ($1, 'contact.updated', '{}', 'c1') RETURNING id`,
    [randomUUID()],
  );
  return row.id;
}

function unmatched(inboxEventId: string, ruleId: string): NewRun {
  const rule = { id: ruleId, version: 'v1', actions: [] } as unknown as RuleDefinition;
  return {
    triggerKey: `event:${inboxEventId}`,
    inboxEventId,
    eventType: 'contact.updated',
    priority: 'interactive',
    rule,
    ruleSetVersion: 'set1',
    contactId: 'c1',
    evaluation: { ruleId, ruleVersion: 'v1', matched: false, trace: [], actions: [], mode: 'live' },
    contactSnapshot: { id: 'c1', name: 'Ana "the" Öster' },
    correlationId: 'corr',
  };
}

describe('recording an event', () => {
  it('claims a pending event once: the second claim finds it processed', async () => {
    const id = await storedEvent();
    const inbox = new InboxEventsRepository(db.dataSource.manager);
    expect(await inbox.claimPending(id)).toBe(true);
    expect(await inbox.claimPending(id)).toBe(false);
    const [row] = await db.dataSource.query(`SELECT status, processed_at FROM inbox_events WHERE id = $1`, [
      id,
    ]);
    expect(row.status).toBe('processed');
    expect(row.processed_at).toBeInstanceOf(Date);
  });

  it('undoes the claim with the transaction that made it', async () => {
    const id = await storedEvent();
    await expect(
      db.dataSource.transaction(async (tx) => {
        expect(await new InboxEventsRepository(tx).claimPending(id)).toBe(true);
        throw new Error('crash before commit');
      }),
    ).rejects.toThrow('crash before commit');
    const [row] = await db.dataSource.query(`SELECT status FROM inbox_events WHERE id = $1`, [id]);
    expect(row.status).toBe('pending');
  });

  it('writes every not-matched run in one statement, finished, and suppresses a repeat', async () => {
    const id = await storedEvent();
    const runs = [unmatched(id, 'rule-a'), unmatched(id, 'rule-b')];
    const first = await db.dataSource.transaction((tx) => createUnmatchedRuns(tx, runs));
    expect(first.map((r) => r.status)).toEqual(['not_matched', 'not_matched']);
    const stored = await db.dataSource.query(
      `SELECT rule_id, status, finished_at, contact_snapshot, priority FROM runs WHERE inbox_event_id = $1 ORDER BY rule_id`,
      [id],
    );
    expect(stored).toEqual([
      expect.objectContaining({ rule_id: 'rule-a', status: 'not_matched', priority: 'interactive' }),
      expect.objectContaining({ rule_id: 'rule-b', status: 'not_matched' }),
    ]);
    expect(stored[0].finished_at).toBeInstanceOf(Date);
    // The contact is kept once per event; every run keeps its trace.
    expect(stored[0].contact_snapshot).toEqual({ id: 'c1', name: 'Ana "the" Öster' });
    expect(stored[1].contact_snapshot).toBeNull();
    const again = await db.dataSource.transaction((tx) => createUnmatchedRuns(tx, runs));
    expect(again.map((r) => r.status)).toEqual(['suppressed', 'suppressed']);
  });

  it('records several unmatched events in one statement, skipping the one no longer pending', async () => {
    const [a, b, taken] = [await storedEvent(), await storedEvent(), await storedEvent()];
    await new InboxEventsRepository(db.dataSource.manager).claimPending(taken);
    const events = [a, taken, b].map((id) => ({
      inboxEventId: id,
      runs: [unmatched(id, 'rule-a'), unmatched(id, 'rule-b')],
    }));
    const statements: string[] = [];
    const counting = new Proxy(db.dataSource, {
      get: (target, prop, receiver) =>
        prop === 'query'
          ? (sql: string, params?: unknown[]) => (statements.push(sql), target.query(sql, params))
          : Reflect.get(target, prop, receiver),
    });
    const result = await recordUnmatchedEvents(counting, events);
    expect(statements).toHaveLength(1);
    expect(result.map((r) => r?.map((run) => run.status) ?? null)).toEqual([
      ['not_matched', 'not_matched'],
      null,
      ['not_matched', 'not_matched'],
    ]);
    const rows = await db.dataSource.query(
      `SELECT inbox_event_id AS id, count(*)::int AS runs, count(contact_snapshot)::int AS snapshots
         FROM runs WHERE inbox_event_id = ANY($1) GROUP BY 1`,
      [[a, b, taken]],
    );
    expect(
      new Map(
        rows.map((r: { id: string; runs: number; snapshots: number }) => [r.id, [r.runs, r.snapshots]]),
      ),
    ).toEqual(
      new Map([
        [a, [2, 1]],
        [b, [2, 1]],
      ]),
    );
    const statuses = await db.dataSource.query(`SELECT status FROM inbox_events WHERE id = ANY($1)`, [
      [a, b],
    ]);
    expect(statuses.map((s: { status: string }) => s.status)).toEqual(['processed', 'processed']);
    // A second copy of the same events writes nothing.
    const again = await recordUnmatchedEvents(db.dataSource, events);
    expect(again).toEqual([null, null, null]);
  });

  it('tells a claimed event whose runs were all written before (suppressed) from one not claimed', async () => {
    const id = await storedEvent();
    const runs = [unmatched(id, 'rule-a')];
    await db.dataSource.transaction((tx) => createUnmatchedRuns(tx, runs));
    const [result] = await recordUnmatchedEvents(db.dataSource, [{ inboxEventId: id, runs }]);
    expect(result?.map((run) => run.status)).toEqual(['suppressed']);
    const [row] = await db.dataSource.query(`SELECT status FROM inbox_events WHERE id = $1`, [id]);
    expect(row.status).toBe('processed');
  });

  it('claims nothing when the insert fails: one statement, both or neither', async () => {
    const id = await storedEvent();
    const bad = { ...unmatched(id, 'rule-a'), ruleSetVersion: null as unknown as string };
    await expect(recordUnmatchedEvents(db.dataSource, [{ inboxEventId: id, runs: [bad] }])).rejects.toThrow();
    const [row] = await db.dataSource.query(`SELECT status FROM inbox_events WHERE id = $1`, [id]);
    expect(row.status).toBe('pending');
  });
});
