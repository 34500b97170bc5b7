// Events with matched runs recorded together (recordMatchedEvents, MatchedEventsRecorder) against
// the per-event path (recordMatchedEvent: createRun per run), on a real database: the same rows,
// in a handful of statements per batch; batch order keeps one contact's runs in order; a refused
// event fails alone; a repeated batch writes nothing new.
import { MatchedEventsRecorder } from '../../../src/pipeline/admission/matched-events-recorder';
import { createTestDb, type TestDb } from '../../support/test-db';
import {
  directory,
  matchedEventsFixture,
  AT_ONCE_SCENARIO,
  NO_OP,
  QUIET,
  SCENARIO,
  statusesOf,
  WRITE,
  type EventSpec,
} from './matched-events-fixture';
import type { MatchedEvent } from '../../../src/pipeline/admission/record-matched-events';

jest.setTimeout(60_000);

let db: TestDb;
let fixture: ReturnType<typeof matchedEventsFixture>;
beforeAll(async () => {
  db = await createTestDb();
  fixture = matchedEventsFixture(db.dataSource);
});
afterAll(() => db.drop());

describe('recording events with matched runs in one batch', () => {
  const eventsOf: typeof fixture.eventsOf = (...args) => fixture.eventsOf(...args);
  const ledgerOf: typeof fixture.ledgerOf = (...args) => fixture.ledgerOf(...args);
  const perEvent: typeof fixture.perEvent = (...args) => fixture.perEvent(...args);
  const batched: typeof fixture.batched = (...args) => fixture.batched(...args);
  const seed: typeof fixture.seed = (...args) => fixture.seed(...args);

  it('writes exactly what the per-event path writes, in a handful of statements', async () => {
    await seed('one');
    await seed('all');
    const one = await eventsOf('one', SCENARIO);
    const all = await eventsOf('all', SCENARIO);
    const perEventResults = await perEvent(one);
    const statements: string[] = [];
    const batchResults = await batched(all, statements);
    expect(statusesOf(batchResults)).toEqual(statusesOf(perEventResults));
    // Created runs are returned aligned with each event's runs.
    batchResults.forEach((created, i) =>
      created?.forEach((run, k) => expect(run.contactId).toBe(all[i].runs[k].contactId)),
    );
    expect(await ledgerOf('all', all)).toEqual(await ledgerOf('one', one));
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
    const decisions = await db.dataSource.query(`SELECT id, unmatched FROM inbox_events WHERE id = ANY($1)`, [
      events.map((e) => e.inboxEventId),
    ]);
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
    path === 'tx' ? fixture.batched(events, counted) : fixture.atOnce(events, counted);
  const world = (name: string) => `${path}-${name}`;

  it('records guarded no-ops in a few statements (per event: five each), as the per-event path', async () => {
    const specs: EventSpec[] = Array.from({ length: 10 }, (_, i) => ({
      contact: `g${i}`,
      runs: [{ rule: NO_OP }],
    }));
    const one = await fixture.eventsOf(world('gone'), specs);
    const all = await fixture.eventsOf(world('gall'), specs);
    const perEventStatements: string[] = [];
    const batchStatements: string[] = [];
    const perEventResults = await fixture.perEvent(one, perEventStatements);
    const batchResults = await write(all, batchStatements);
    expect(statusesOf(batchResults)).toEqual(specs.map(() => [['succeeded', ['no_change']]]));
    expect(statusesOf(batchResults)).toEqual(statusesOf(perEventResults));
    expect(await fixture.ledgerOf(world('gall'), all)).toEqual(await fixture.ledgerOf(world('gone'), one));
    expect(batchStatements).toHaveLength(statements);
    expect(perEventStatements).toHaveLength(50);
  });

  it("does not settle a contact's second no-op while its first run is pending; does after a settled one", async () => {
    const behindWrite = await fixture.eventsOf(world('two'), [
      { contact: 'x', runs: [{ rule: WRITE }] },
      { contact: 'x', runs: [{ rule: NO_OP }] },
    ]);
    expect(statusesOf(await write(behindWrite))).toEqual([[['pending', null]], [['pending', null]]]);
    const behindNoOp = await fixture.eventsOf(world('two'), [
      { contact: 'y', runs: [{ rule: NO_OP }] },
      { contact: 'y', runs: [{ rule: NO_OP }] },
    ]);
    expect(statusesOf(await write(behindNoOp))).toEqual([
      [['succeeded', ['no_change']]],
      [['succeeded', ['no_change']]],
    ]);
  });

  it('writes nothing new for a repeated batch: not claimed, or (pending again) every run suppressed', async () => {
    const events = await fixture.eventsOf(
      world('again'),
      scenario.filter((e) => !e.claimedBefore),
    );
    await write(events);
    const before = await fixture.ledgerOf(world('again'), events);
    expect(await write(events)).toEqual(events.map(() => null));
    await db.dataSource.query(`UPDATE inbox_events SET status = 'pending' WHERE id = ANY($1)`, [
      events.map((e) => e.inboxEventId),
    ]);
    const again = await write(events);
    // A rule that did not match has no run to find again: it is not_matched again, nothing written.
    expect(again.map((created) => created?.map((run) => run.status))).toEqual(
      events.map((e) => e.runs.map((r) => (r.evaluation.matched ? 'suppressed' : 'not_matched'))),
    );
    const after = await fixture.ledgerOf(world('again'), events);
    expect(after.runs).toEqual(before.runs);
    expect(after.enrollments).toEqual(before.enrollments);
  });
});
