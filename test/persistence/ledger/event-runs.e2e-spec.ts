// The statement that claims an event (lock + processed mark) with the decision of its rules that did
// not match on its own row (no runs rows for them, issue 35); an event no rule matched is that one
// statement, batched across events.
import { randomUUID } from 'node:crypto';
import { recordUnmatchedEvents, type NewRun } from '../../../src/pipeline/admission/create-run';
import { InboxEventsRepository } from '../../../src/persistence/ledger/inbox-events.repository';
import type { RuleDefinition } from '../../../src/language/rules/format/rule-types';
import { createTestDb, type TestDb } from '../../support/test-db';

/** One trigger time for every run of these events: a recorded twice event meets its first runs. */
const TRIGGER_AT = new Date('2026-11-28T12:00:00Z');

jest.setTimeout(60_000);

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.drop());

async function storedEvent(payload: object = {}): Promise<string> {
  const [row] = await db.dataSource.query(
    `INSERT INTO inbox_events (event_key, type, payload, contact_id) VALUES ($1, 'contact.updated', $2, 'c1') RETURNING id`,
    [randomUUID(), JSON.stringify(payload)],
  );
  return row.id;
}

function unmatched(inboxEventId: string, ruleId: string): NewRun {
  const rule = { id: ruleId, version: 'v1', actions: [] } as unknown as RuleDefinition;
  return {
    triggerKey: `event:${inboxEventId}`,
    triggerAt: TRIGGER_AT,
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
    const claim = () => inbox.claimUnmatched(new Map([[id, null]]));
    expect(await claim()).toEqual(new Set([id]));
    expect(await claim()).toEqual(new Set());
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
        expect((await new InboxEventsRepository(tx).claimUnmatched(new Map([[id, null]]))).size).toBe(1);
        throw new Error('crash before commit');
      }),
    ).rejects.toThrow('crash before commit');
    const [row] = await db.dataSource.query(`SELECT status FROM inbox_events WHERE id = $1`, [id]);
    expect(row.status).toBe('pending');
  });

  it('records several unmatched events in one statement: the decision on each row, no runs', async () => {
    const [a, b, taken] = [await storedEvent(), await storedEvent(), await storedEvent()];
    await new InboxEventsRepository(db.dataSource.manager).claimUnmatched(new Map([[taken, null]]));
    const events = [a, taken, b].map((id) => ({
      inboxEventId: id,
      runs: [unmatched(id, 'rule-a'), unmatched(id, 'rule-b')],
      payload: {},
    }));
    const statements: string[] = [];
    const counting = new Proxy(db.dataSource, {
      get: (target, prop, receiver) =>
        prop === 'query'
          ? (sql: string, params?: unknown[]) => (statements.push(sql), target.query(sql, params))
          : Reflect.get(target, prop, receiver),
    });
    expect(await recordUnmatchedEvents(counting, events)).toEqual([true, false, true]);
    expect(statements).toHaveLength(1);
    const runs = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM runs WHERE inbox_event_id = ANY($1)`,
      [[a, b, taken]],
    );
    expect(runs[0].n).toBe(0);
    const rows = await db.dataSource.query(
      `SELECT id, status, inbox_decision(unmatched, unmatched_set, unmatched_rules) AS unmatched FROM inbox_events WHERE id = ANY($1) ORDER BY id`,
      [[a, b, taken]],
    );
    const byId = new Map(rows.map((r: { id: string }) => [r.id, r]));
    for (const id of [a, b])
      expect(byId.get(id)).toMatchObject({ status: 'processed', unmatched: { set: 'set1', rules: 2 } });
    // The event another job claimed keeps what that job wrote (no decision from this one).
    expect(byId.get(taken)).toMatchObject({ status: 'processed', unmatched: null });
    // A second copy of the same events writes nothing.
    expect(await recordUnmatchedEvents(db.dataSource, events)).toEqual([false, false, false]);
  });

  it('keeps the deployed commit in the decision when the rule set came from one', async () => {
    const id = await storedEvent();
    const runs = [{ ...unmatched(id, 'rule-a'), rulesCommit: 'abc1234' }];
    expect(await recordUnmatchedEvents(db.dataSource, [{ inboxEventId: id, runs, payload: {} }])).toEqual([
      true,
    ]);
    const [row] = await db.dataSource.query(
      `SELECT inbox_decision(unmatched, unmatched_set, unmatched_rules) AS unmatched, unmatched AS stored
         FROM inbox_events WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({ unmatched: { set: 'set1', commit: 'abc1234', rules: 1 }, stored: null });
  });

  it('names each rule set and commit once, and reads a decision kept as jsonb the same way', async () => {
    const ids = [await storedEvent(), await storedEvent(), await storedEvent()];
    const events = ids.map((id, i) => ({
      inboxEventId: id,
      runs: [{ ...unmatched(id, 'rule-a'), rulesCommit: i < 2 ? 'ref-commit-1' : 'ref-commit-2' }],
      payload: {},
    }));
    expect(await recordUnmatchedEvents(db.dataSource, events)).toEqual([true, true, true]);
    const refs = await db.dataSource.query(
      `SELECT rules_commit FROM rule_set_refs WHERE rules_commit LIKE 'ref-commit-%' ORDER BY 1`,
    );
    expect(refs).toEqual([{ rules_commit: 'ref-commit-1' }, { rules_commit: 'ref-commit-2' }]);
    // A row processed before migration 1796020000000 keeps its decision as jsonb: read alike.
    const before = await new InboxEventsRepository(db.dataSource).views.forExplain(ids[0]);
    await db.dataSource.query(
      `UPDATE inbox_events SET unmatched = inbox_decision(unmatched, unmatched_set, unmatched_rules),
              unmatched_set = NULL, unmatched_rules = NULL WHERE id = $1`,
      [ids[0]],
    );
    const after = await new InboxEventsRepository(db.dataSource).views.forExplain(ids[0]);
    expect(after?.unmatched).toEqual({ set: 'set1', commit: 'ref-commit-1', rules: 1 });
    expect(after).toEqual(before);
  });

  it('inserts a reference once per process, and not from a transaction that rolls back', async () => {
    const claim = (db: Parameters<typeof recordUnmatchedEvents>[0], id: string, commit: string) =>
      recordUnmatchedEvents(db, [
        { inboxEventId: id, runs: [{ ...unmatched(id, 'rule-a'), rulesCommit: commit }], payload: {} },
      ]);
    const refOf = async (commit: string) =>
      (await db.dataSource.query(`SELECT id FROM rule_set_refs WHERE rules_commit = $1`, [commit])).length;

    // Committed once over the pool: a later claim naming it leaves the insert out (the row,
    // deleted behind the process' back here, is not written again).
    expect(await claim(db.dataSource, await storedEvent(), 'once-1')).toEqual([true]);
    expect(await refOf('once-1')).toBe(1);
    await db.dataSource.query(`DELETE FROM rule_set_refs WHERE rules_commit = 'once-1'`);
    expect(await claim(db.dataSource, await storedEvent(), 'once-1')).toEqual([true]);
    expect(await refOf('once-1')).toBe(0);

    // Inserted in a transaction that rolled back: not taken as known, so the next claim inserts it.
    const rolledBack = await storedEvent();
    await expect(
      db.dataSource.transaction(async (tx) => {
        expect(await claim(tx, rolledBack, 'once-2')).toEqual([true]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await refOf('once-2')).toBe(0);
    expect(await claim(db.dataSource, rolledBack, 'once-2')).toEqual([true]);
    expect(await refOf('once-2')).toBe(1);
  });

  it('stores a decision in a dozen bytes whatever the number of rules that listened', async () => {
    const id = await storedEvent();
    const runs = Array.from({ length: 50 }, (_, i) => unmatched(id, `rule-${i}`));
    await recordUnmatchedEvents(db.dataSource, [{ inboxEventId: id, runs, payload: {} }]);
    const [row] = await db.dataSource.query(
      `SELECT coalesce(pg_column_size(unmatched), 0) + pg_column_size(unmatched_set) + pg_column_size(unmatched_rules)
              AS bytes, unmatched_rules FROM inbox_events WHERE id = $1`,
      [id],
    );
    // By reference (migration 1796020000000): 8 bytes name the rule set and commit, 4 count the rules.
    expect(row).toEqual({ bytes: 12, unmatched_rules: 50 });
  });
});
