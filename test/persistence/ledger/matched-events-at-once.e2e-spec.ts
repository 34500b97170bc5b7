// Events with matched runs recorded in two round trips (recordMatchedEventsAtOnce: one read for
// loop protection and settlement, then one statement that claims, inserts runs and action rows)
// against the per-event path, on a real database: the same rows, two statements for any batch, nothing written twice,
// and the batches it leaves to the transaction (enrollment gates, an outcome to note).
import { createTestDb, type TestDb } from '../../support/test-db';
import {
  AT_ONCE_MAX_EVENTS,
  writableAtOnce,
} from '../../../src/pipeline/admission/record-matched-events-at-once';
import { MatchedEventsRecorder } from '../../../src/pipeline/admission/matched-events-recorder';
import {
  directory,
  matchedEventsFixture,
  AT_ONCE_SCENARIO,
  NO_OP,
  ONCE,
  statusesOf,
  WRITE,
} from './matched-events-fixture';

jest.setTimeout(60_000);

let db: TestDb;
let fixture: ReturnType<typeof matchedEventsFixture>;
beforeAll(async () => {
  db = await createTestDb();
  fixture = matchedEventsFixture(db.dataSource);
});
afterAll(() => db.drop());

const SCENARIO = AT_ONCE_SCENARIO;

describe('recording events with matched runs at once (two round trips)', () => {
  const { eventsOf, ledgerOf, perEvent, atOnce, seed } = {
    eventsOf: (...a: Parameters<typeof fixture.eventsOf>) => fixture.eventsOf(...a),
    ledgerOf: (...a: Parameters<typeof fixture.ledgerOf>) => fixture.ledgerOf(...a),
    perEvent: (...a: Parameters<typeof fixture.perEvent>) => fixture.perEvent(...a),
    atOnce: (...a: Parameters<typeof fixture.atOnce>) => fixture.atOnce(...a),
    seed: (...a: Parameters<typeof fixture.seed>) => fixture.seed(...a),
  };

  it('writes exactly what the per-event path writes, in two statements', async () => {
    await seed('one');
    await seed('all');
    const one = await eventsOf('one', SCENARIO);
    const all = await eventsOf('all', SCENARIO);
    // The recorder takes this path for batches up to AT_ONCE_MAX_EVENTS; the path itself takes any.
    expect(writableAtOnce(all.slice(0, AT_ONCE_MAX_EVENTS))).toBe(true);
    expect(writableAtOnce(all)).toBe(all.length <= AT_ONCE_MAX_EVENTS);
    const perEventResults = await perEvent(one);
    const statements: string[] = [];
    const results = await atOnce(all, statements);
    expect(statusesOf(results)).toEqual(statusesOf(perEventResults));
    results.forEach((created, i) =>
      created?.forEach((run, k) => expect(run.contactId).toBe(all[i].runs[k].contactId)),
    );
    expect(await ledgerOf('all', all)).toEqual(await ledgerOf('one', one));
    // Spot checks: a settled no-op, a write left pending with the no-op behind it, the loop brake,
    // an event another job claimed (nothing), a contact busy in the database (its no-op waits).
    const statuses = statusesOf(results);
    expect(statuses[0]).toEqual([
      ['succeeded', ['no_change']],
      ['not_matched', null],
    ]);
    expect(statuses[1]).toEqual([
      ['pending', null],
      ['pending', null],
    ]);
    expect(statuses[3]).toEqual([['suppressed', null]]);
    expect(statuses[6]).toBeNull();
    expect(statuses[7]).toEqual([['pending', null]]);
    // Loop lookup with the settlement read, then the write.
    expect(statements).toHaveLength(2);
  });

  // The two paths write through different statements (one chained, three apart): every column of
  // every row they write, new columns included, must come out the same.
  it('writes every column as the transaction path does', async () => {
    const specs = SCENARIO.filter((e) => !e.claimedBefore);
    const viaTx = await eventsOf('coltx', specs);
    const viaFn = await eventsOf('colfn', specs);
    await fixture.batched(viaTx);
    await atOnce(viaFn);
    const rowsOf = async (world: string, events: typeof viaTx) => {
      const ids = events.map((e) => e.inboxEventId);
      // Ids, times and the world's prefix (in the contact snapshot too) taken out; whether a time is set kept.
      const runs = await db.dataSource.query(
        `SELECT array_position($1::uuid[], r.inbox_event_id) AS event, replace(r.contact_id, $2, '') AS contact,
                replace((to_jsonb(r) - '{id,seq,inbox_event_id,trigger_key,contact_id,created_at,updated_at,finished_at}'::text[]
                  || jsonb_build_object('finished', r.finished_at IS NOT NULL))::text, $2, '')::jsonb AS run,
                (SELECT jsonb_agg(to_jsonb(a) - '{id,run_id,finished_at}'::text[]
                                  || jsonb_build_object('finished', a.finished_at IS NOT NULL) ORDER BY a.action_index)
                   FROM action_results a WHERE a.run_id = r.id) AS action_rows
           FROM runs r WHERE r.inbox_event_id = ANY($1) ORDER BY 1, r.seq`,
        [ids, `${world}-`],
      );
      const inbox = await db.dataSource.query(
        `SELECT array_position($1::uuid[], e.id) AS event,
                to_jsonb(e) - '{id,event_key,event_at,contact_id,received_at,processed_at,payload,batch_key}'::text[]
                  || jsonb_build_object('processed', e.processed_at IS NOT NULL) AS row
           FROM inbox_events e WHERE e.id = ANY($1) ORDER BY 1`,
        [ids],
      );
      return { runs, inbox };
    };
    const [tx, fn] = [await rowsOf('coltx', viaTx), await rowsOf('colfn', viaFn)];
    expect(fn.runs.length).toBeGreaterThan(5);
    expect(fn).toEqual(tx);
  });

  it('writes a second copy of an event in the batch once', async () => {
    const [event] = await eventsOf('copy', [{ contact: 'z', runs: [{ rule: WRITE }] }]);
    const results = await atOnce([event, event]);
    expect(statusesOf(results)).toEqual([[['pending', null]], null]);
    const ledger = await ledgerOf('copy', [event]);
    expect(ledger.runs).toHaveLength(1);
  });

  it('writes nothing at all when Postgres refuses one run: the statement is all or nothing', async () => {
    const events = await eventsOf('refused', [
      { contact: 'c1', runs: [{ rule: NO_OP }] },
      { contact: 'c2', runs: [{ rule: WRITE }] },
    ]);
    events[1].runs[0] = { ...events[1].runs[0], ruleSetVersion: null as unknown as string };
    await expect(atOnce(events)).rejects.toThrow(/rule_set_version/);
    const ledger = await ledgerOf('refused', events);
    expect(ledger.inbox.map((e: { status: string }) => e.status)).toEqual(['pending', 'pending']);
    expect(ledger.runs).toEqual([]);
  });

  it('leaves enrollment gates and outcomes to the transaction; the recorder writes both kinds', async () => {
    const gated = await eventsOf('gated', [{ contact: 'o', runs: [{ rule: ONCE }] }]);
    const noted = await eventsOf('noted', [
      { contact: 'n', runs: [{ rule: WRITE }], outcome: 'mirror_skipped' },
    ]);
    expect(writableAtOnce(gated)).toBe(false);
    expect(writableAtOnce(noted)).toBe(false);
    const plain = await eventsOf('plain', [{ contact: 'p', runs: [{ rule: NO_OP }] }]);
    const recorder = new MatchedEventsRecorder(db.dataSource, directory);
    const [g, n, p] = await Promise.all([...gated, ...noted, ...plain].map((e) => recorder.record(e)));
    expect([g, n, p].map((created) => created?.map((run) => run.status))).toEqual([
      ['pending'],
      ['pending'],
      ['succeeded'],
    ]);
    const [{ outcome }] = await db.dataSource.query(`SELECT outcome FROM inbox_events WHERE id = $1`, [
      noted[0].inboxEventId,
    ]);
    expect(outcome).toBe('mirror_skipped');
  });
});
