// Events with matched runs recorded together (recordMatchedEvents, MatchedEventsRecorder) against
// the per-event path (recordMatchedEvent: createRun per run), on a real database: the same rows,
// in a handful of statements per batch; batch order keeps one contact's runs in order; a refused
// event fails alone; a repeated batch writes nothing new.
import { MatchedEventsRecorder } from '../../../src/pipeline/admission/matched-events-recorder';
import {
  AT_ONCE_MAX_EVENTS,
  writableAtOnce,
} from '../../../src/pipeline/admission/record-matched-events-at-once';
import { createTestDb, type TestDb } from '../../support/test-db';
import {
  directory,
  matchedEventsFixture,
  AT_ONCE_SCENARIO,
  NO_OP,
  ONCE,
  QUIET,
  SCENARIO,
  statusesOf,
  WRITE,
  type EventSpec,
} from './matched-events-fixture';
import type { MatchedEvent } from '../../../src/pipeline/admission/record-matched-events';
import type { PendingRun } from '../../../src/pipeline/admission/create-run';

jest.setTimeout(60_000);

let db: TestDb;
let fixture: ReturnType<typeof matchedEventsFixture>;
beforeAll(async () => {
  db = await createTestDb();
  fixture = matchedEventsFixture(db.dataSource);
});
afterAll(() => db.drop());

// The fixture is built in beforeAll: these read it when called.
const eventsOf: typeof fixture.eventsOf = (...args) => fixture.eventsOf(...args);
const ledgerOf: typeof fixture.ledgerOf = (...args) => fixture.ledgerOf(...args);
const perEvent: typeof fixture.perEvent = (...args) => fixture.perEvent(...args);
const batched: typeof fixture.batched = (...args) => fixture.batched(...args);
const atOnce: typeof fixture.atOnce = (...args) => fixture.atOnce(...args);
const seed: typeof fixture.seed = (...args) => fixture.seed(...args);

/**
 * A scenario written by `write` in world `<prefix>all` and by the per-event path in `<prefix>one`
 * (both seeded): the same statuses, runs aligned with each event's, the same ledger.
 */
async function sameAsPerEvent(
  prefix: string,
  scenario: EventSpec[],
  write: (events: MatchedEvent[], statements: string[]) => Promise<(PendingRun[] | null)[]>,
) {
  await seed(`${prefix}one`);
  await seed(`${prefix}all`);
  const one = await eventsOf(`${prefix}one`, scenario);
  const all = await eventsOf(`${prefix}all`, scenario);
  const perEventResults = await perEvent(one);
  const statements: string[] = [];
  const results = await write(all, statements);
  expect(statusesOf(results)).toEqual(statusesOf(perEventResults));
  // Created runs are returned aligned with each event's runs.
  results.forEach((created, i) =>
    created?.forEach((run, k) => expect(run.contactId).toBe(all[i].runs[k].contactId)),
  );
  expect(await ledgerOf(`${prefix}all`, all)).toEqual(await ledgerOf(`${prefix}one`, one));
  return { all, results, statements };
}

describe('recording events with matched runs in one batch', () => {
  it('writes exactly what the per-event path writes, in a handful of statements', async () => {
    const { results: batchResults, statements } = await sameAsPerEvent('', SCENARIO, batched);
    // Spot checks of the common truth both paths agree on.
    expect(statusesOf(batchResults).slice(0, 3)).toEqual([
      [
        ['succeeded', ['no_change']],
        ['not_matched', null],
      ],
      [
        ['pending', null],
        ['pending', null],
      ],
      [['pending', null]],
    ]);
    // claim with the not-matched decisions, loop lookup, 2 once claims, settlement read, runs, action rows, outcome.
    expect(statements).toHaveLength(8);
  });

  it('fails only the event Postgres refuses: the others of the batch are written', async () => {
    const recorder = new MatchedEventsRecorder(db.dataSource, directory);
    const events = await eventsOf('bad', [
      { contact: 'c1', runs: [{ rule: NO_OP }] },
      { contact: 'c2', runs: [{ rule: WRITE }] },
      { contact: 'c3', runs: [{ rule: NO_OP }, { rule: QUIET, matched: false }] },
    ]);
    // A run Postgres refuses (NOT NULL rule_set_version) in the second event.
    events[1].runs[0] = { ...events[1].runs[0], ruleSetVersion: null as unknown as string };
    const results = await Promise.allSettled(events.map((e) => recorder.record(e)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const ledger = await ledgerOf('bad', events);
    expect(ledger.inbox.map((e: { status: string }) => e.status)).toEqual([
      'processed',
      'pending',
      'processed',
    ]);
    // The rule of the third event that did not match has no run: its decision is on the event.
    expect(ledger.runs.map((r: { event: number; status: string }) => [r.event, r.status])).toEqual([
      [0, 'succeeded'],
      [2, 'succeeded'],
    ]);
    const decisions = await db.dataSource.query(
      `SELECT id, inbox_decision(unmatched, unmatched_set, unmatched_rules) AS unmatched FROM inbox_events WHERE id = ANY($1)`,
      [events.map((e) => e.inboxEventId)],
    );
    const decisionOf = (i: number) =>
      decisions.find((d: { id: string }) => d.id === events[i].inboxEventId).unmatched;
    expect([decisionOf(0), decisionOf(1), decisionOf(2)]).toEqual([
      null,
      null,
      expect.objectContaining({ rules: 1 }),
    ]);
  });
});

// What both batch paths must do alike: the transaction (recordMatchedEvents) and the two round
// trips of a small batch (recordMatchedEventsAtOnce, which takes no once / outcome).
describe.each([
  { path: 'tx', statements: 5, scenario: SCENARIO },
  { path: 'once', statements: 2, scenario: AT_ONCE_SCENARIO },
])('a batch written by path "$path"', ({ path, statements, scenario }) => {
  const write = (events: MatchedEvent[], counted: string[] = []) =>
    path === 'tx' ? batched(events, counted) : atOnce(events, counted);
  const world = (name: string) => `${path}-${name}`;

  it('records guarded no-ops in a few statements (per event: five each), as the per-event path', async () => {
    const specs: EventSpec[] = Array.from({ length: 10 }, (_, i) => ({
      contact: `g${i}`,
      runs: [{ rule: NO_OP }],
    }));
    const one = await eventsOf(world('gone'), specs);
    const all = await eventsOf(world('gall'), specs);
    const perEventStatements: string[] = [];
    const batchStatements: string[] = [];
    const perEventResults = await perEvent(one, perEventStatements);
    const batchResults = await write(all, batchStatements);
    expect(statusesOf(batchResults)).toEqual(specs.map(() => [['succeeded', ['no_change']]]));
    expect(statusesOf(batchResults)).toEqual(statusesOf(perEventResults));
    expect(await ledgerOf(world('gall'), all)).toEqual(await ledgerOf(world('gone'), one));
    expect(batchStatements).toHaveLength(statements);
    expect(perEventStatements).toHaveLength(50);
  });

  it("does not settle a contact's second no-op while its first run is pending; does after a settled one", async () => {
    const behindWrite = await eventsOf(world('two'), [
      { contact: 'x', runs: [{ rule: WRITE }] },
      { contact: 'x', runs: [{ rule: NO_OP }] },
    ]);
    expect(statusesOf(await write(behindWrite))).toEqual([[['pending', null]], [['pending', null]]]);
    const behindNoOp = await eventsOf(world('two'), [
      { contact: 'y', runs: [{ rule: NO_OP }] },
      { contact: 'y', runs: [{ rule: NO_OP }] },
    ]);
    expect(statusesOf(await write(behindNoOp))).toEqual([
      [['succeeded', ['no_change']]],
      [['succeeded', ['no_change']]],
    ]);
  });

  it('writes nothing new for a repeated batch: not claimed, or (pending again) every run suppressed', async () => {
    const events = await eventsOf(
      world('again'),
      scenario.filter((e) => !e.claimedBefore),
    );
    await write(events);
    const before = await ledgerOf(world('again'), events);
    expect(await write(events)).toEqual(events.map(() => null));
    await db.dataSource.query(`UPDATE inbox_events SET status = 'pending' WHERE id = ANY($1)`, [
      events.map((e) => e.inboxEventId),
    ]);
    const again = await write(events);
    // A rule that did not match has no run to find again: it is not_matched again, nothing written.
    expect(again.map((created) => created?.map((run) => run.status))).toEqual(
      events.map((e) => e.runs.map((r) => (r.evaluation.matched ? 'suppressed' : 'not_matched'))),
    );
    const after = await ledgerOf(world('again'), events);
    expect(after.runs).toEqual(before.runs);
    expect(after.enrollments).toEqual(before.enrollments);
  });
});

// The two round trips of a small batch (recordMatchedEventsAtOnce: one read for loop protection and
// settlement, then one statement that claims, inserts runs and action rows) against the per-event
// path and the transaction: the same rows, column by column; a second copy, a refused run; the
// batches it leaves to the transaction (enrollment gates, an outcome to note, a large batch).
describe('recording events with matched runs at once (two round trips)', () => {
  it('writes exactly what the per-event path writes, in two statements', async () => {
    const { all, results, statements } = await sameAsPerEvent('a', AT_ONCE_SCENARIO, atOnce);
    // The recorder takes this path for batches up to AT_ONCE_MAX_EVENTS, one more goes to the transaction.
    const upTo = Array.from({ length: AT_ONCE_MAX_EVENTS + 1 }, (_, i) => all[i % all.length]);
    expect(writableAtOnce(upTo.slice(0, AT_ONCE_MAX_EVENTS))).toBe(true);
    expect(writableAtOnce(upTo)).toBe(false);
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
    const specs = AT_ONCE_SCENARIO.filter((e) => !e.claimedBefore);
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
