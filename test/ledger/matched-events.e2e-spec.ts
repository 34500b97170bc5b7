// Events with matched runs recorded together (recordMatchedEvents, MatchedEventsRecorder) against
// the per-event path (recordMatchedEvent: createRun per run), on a real database: the same rows,
// in a handful of statements per batch; batch order keeps one contact's runs in order; a refused
// event fails alone; a repeated batch writes nothing new.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { settleBatchInTransaction, settleInTransaction } from '../../src/actions/settle-in-transaction';
import type { CrmDirectory } from '../../src/crm/crm-directory.service';
import { MatchedEventsRecorder } from '../../src/events/matched-events-recorder';
import type { NewRun, PendingRun } from '../../src/ledger/create-run';
import {
  recordMatchedEvent,
  recordMatchedEvents,
  type MatchedEvent,
} from '../../src/ledger/record-matched-events';
import type { RuleAction, RuleDefinition } from '../../src/rules/rule-types';
import { createTestDb, type TestDb } from '../support/test-db';

jest.setTimeout(60_000);

// Names resolve from the cache only (as in the events transaction): every tag is known.
const directory = {
  cachedOnly: () => ({ resolveTag: async (name: string) => ({ id: `tag-${name}`, name, color: '' }) }),
} as unknown as CrmDirectory;

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.drop());

const rule = (id: string, actions: RuleAction[], over: Partial<RuleDefinition> = {}): RuleDefinition =>
  ({ id, version: 'v1', actions, mode: 'live', ...over }) as unknown as RuleDefinition;

const NO_OP = rule('r-noop', [{ type: 'add-tag', tag: 'vip' }]); // the contacts have vip
const WRITE = rule('r-write', [{ type: 'add-tag', tag: 'new' }]);
const ONCE = rule('r-once', [{ type: 'add-tag', tag: 'new' }], { once: 'per-contact' });
const WINDOWED = rule('r-window', [{ type: 'add-tag', tag: 'vip' }], {
  window: { days: ['mon'], from: 540, to: 1080, timezone: 'UTC', outside: 'wait' },
} as unknown as Partial<RuleDefinition>);
const QUIET = rule('r-quiet', [{ type: 'add-tag', tag: 'x' }]);

interface RunSpec {
  rule: RuleDefinition;
  matched?: boolean;
  shadow?: boolean;
  paused?: boolean;
  replay?: boolean;
}

async function storedEvent(contactId: string): Promise<string> {
  const [row] = await db.dataSource.query(
    `INSERT INTO inbox_events (event_key, type, payload, contact_id)
     VALUES ($1, 'contact.updated', '{"type":"contact.updated","data":{}}', $2) RETURNING id`,
    [randomUUID(), contactId],
  );
  return row.id;
}

function newRun(inboxEventId: string, contactId: string, spec: RunSpec): NewRun {
  const r = spec.rule;
  return {
    triggerKey: `event:${inboxEventId}`,
    inboxEventId,
    eventType: 'contact.updated',
    replay: spec.replay ?? false,
    priority: 'interactive',
    rule: r,
    ruleSetVersion: 'set1',
    contactId,
    evaluation: {
      ruleId: r.id,
      ruleVersion: 'v1',
      matched: spec.matched ?? true,
      trace: [{ fact: 'contact.tags', matched: spec.matched ?? true }] as never,
      actions: r.actions,
      mode: spec.shadow ? 'shadow' : 'live',
    },
    paused: spec.paused ?? false,
    contactSnapshot: {
      id: contactId,
      tags: [{ id: 'tag-vip', name: 'vip', color: '' }],
      customFields: {},
      updatedAt: '2025-01-01T00:00:00Z',
    },
    correlationId: 'corr',
  };
}

/** The events of one scenario, for contacts prefixed by `world` (two worlds never share state). */
interface EventSpec {
  contact: string;
  runs: RunSpec[];
  outcome?: 'mirror_skipped';
  claimedBefore?: boolean;
}

async function eventsOf(world: string, specs: EventSpec[]): Promise<MatchedEvent[]> {
  const events: MatchedEvent[] = [];
  for (const spec of specs) {
    const contactId = `${world}-${spec.contact}`;
    const id = await storedEvent(contactId);
    if (spec.claimedBefore)
      await db.dataSource.query(`UPDATE inbox_events SET status = 'processed' WHERE id = $1`, [id]);
    events.push({
      inboxEventId: id,
      runs: spec.runs.map((r) => newRun(id, contactId, r)),
      outcome: spec.outcome ?? null,
      note: spec.outcome ? 'contact mirror not updated: too large' : null,
    });
  }
  return events;
}

/** What a world's database holds, with its ids and contact prefixes taken out (comparable). */
async function ledgerOf(world: string, events: MatchedEvent[]) {
  const ids = events.map((e) => e.inboxEventId);
  const index = (id: string) => ids.indexOf(id);
  const runs = await db.dataSource.query(
    `SELECT r.inbox_event_id AS event, r.rule_id, r.status, r.reason, r.mode, r.priority, r.timing, r.trace,
            r.actions, r.contact_snapshot IS NOT NULL AS snapshot, r.finished_at IS NOT NULL AS finished,
            replace(r.contact_id, $2, '') AS contact, r.seq::int AS seq,
            coalesce((SELECT jsonb_agg(jsonb_build_object('i', a.action_index, 'status', a.status, 'reason', a.reason,
                                        'detail', a.error_message, 'finished', a.finished_at IS NOT NULL)
                                        ORDER BY a.action_index)
                        FROM action_results a WHERE a.run_id = r.id), '[]') AS action_rows
       FROM runs r WHERE r.inbox_event_id = ANY($1) ORDER BY r.created_at, r.seq`,
    [ids, `${world}-`],
  );
  const inbox = await db.dataSource.query(
    `SELECT id, status, outcome, last_error FROM inbox_events WHERE id = ANY($1)`,
    [ids],
  );
  const enrollments = await db.dataSource.query(
    `SELECT rule_id, replace(contact_id, $1, '') AS contact, fire_count FROM enrollments
      WHERE contact_id LIKE $1 || '%' ORDER BY rule_id, contact_id`,
    [`${world}-`],
  );
  type Row = { event: string; seq: number; status: string };
  const byEvent = (a: { event: number; seq: number }, b: { event: number; seq: number }) =>
    a.event - b.event || a.seq - b.seq;
  return {
    // Within an event: rule order (not-matched runs first, as both paths insert them first).
    runs: runs
      .map((r: Row) => ({ ...r, event: index(r.event) }))
      .sort(byEvent)
      .map(({ seq: _seq, ...r }: Row) => r),
    // Across events: the runs that may act, in the order the runner takes them (created_at, seq).
    actingOrder: runs
      .filter((r: Row) => r.status !== 'not_matched')
      .map((r: Row) => `${index(r.event)}:${(r as unknown as { rule_id: string }).rule_id}`),
    inbox: inbox
      .map((e: { id: string }) => ({ ...e, id: index(e.id) }))
      .sort((a: { id: number }, b: { id: number }) => a.id - b.id),
    enrollments,
  };
}

const statusesOf = (results: (PendingRun[] | null)[]) =>
  results.map((r) => r?.map((run) => [run.status, run.settled?.map((s) => s.reason) ?? null]) ?? null);

/** A transaction whose statements are counted. */
function counting(tx: EntityManager, statements: string[]): EntityManager {
  return new Proxy(tx, {
    get: (target, prop, receiver) =>
      prop === 'query'
        ? (sql: string, params?: unknown[]) => (statements.push(sql), target.query(sql, params))
        : Reflect.get(target, prop, receiver),
  });
}

async function perEvent(events: MatchedEvent[], statements: string[] = []) {
  const settle = settleInTransaction(directory);
  const results: (PendingRun[] | null)[] = [];
  for (const event of events)
    results.push(
      await db.dataSource.transaction((tx) => recordMatchedEvent(counting(tx, statements), event, settle)),
    );
  return results;
}

function batched(events: MatchedEvent[], statements: string[] = []) {
  return db.dataSource.transaction((tx) =>
    recordMatchedEvents(counting(tx, statements), events, settleBatchInTransaction(directory)),
  );
}

/** Before a world's events: a recent success of r-write on c3 (loop protection), a busy c8. */
async function seed(world: string): Promise<void> {
  const [seedEvent] = await eventsOf(world, [{ contact: 'seed', runs: [] }]);
  await db.dataSource.query(
    `INSERT INTO runs (id, trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, mode, priority,
                       trace, actions, finished_at)
     VALUES ($1, $2, 'r-write', 'v1', 'set1', $3, 'succeeded', 'live', 'interactive', '[]', '[]', now()),
            ($4, $2, 'r-other', 'v1', 'set1', $5, 'pending', 'live', 'interactive', '[]', '[]', NULL)`,
    [randomUUID(), `seed:${seedEvent.inboxEventId}`, `${world}-c3`, randomUUID(), `${world}-c8`],
  );
  await db.dataSource.query(
    `INSERT INTO action_results (run_id, action_index, action, status, finished_at)
     SELECT id, 0, '{}', 'succeeded', now() FROM runs WHERE contact_id = $1`,
    [`${world}-c3`],
  );
}

const SCENARIO: EventSpec[] = [
  // A guarded no-op settled, beside a rule that did not match.
  { contact: 'c1', runs: [{ rule: NO_OP }, { rule: QUIET, matched: false }] },
  // A write left pending, then a no-op of the same event (behind it: pending).
  { contact: 'c2', runs: [{ rule: WRITE }, { rule: NO_OP }] },
  // A second event of c2 in the batch: its no-op waits behind the pending write.
  { contact: 'c2', runs: [{ rule: NO_OP }] },
  // Loop protection (r-write succeeded on c3 just now); a replay is not held back.
  { contact: 'c3', runs: [{ rule: WRITE }] },
  { contact: 'c3', runs: [{ rule: WRITE, replay: true }, { rule: NO_OP }] },
  // once per contact: the second event's run is suppressed.
  { contact: 'c4', runs: [{ rule: ONCE }] },
  { contact: 'c4', runs: [{ rule: ONCE }] },
  // Shadow, paused, a window (timing kept on the run, never settled), an outcome to note.
  { contact: 'c5', runs: [{ rule: NO_OP, shadow: true }, { rule: WRITE, paused: true }, { rule: NO_OP }] },
  { contact: 'c6', runs: [{ rule: WINDOWED }, { rule: QUIET, matched: false }], outcome: 'mirror_skipped' },
  // Claimed by another job before: nothing written.
  { contact: 'c7', runs: [{ rule: NO_OP }], claimedBefore: true },
  // A contact with an unfinished run in the database: its no-op waits.
  { contact: 'c8', runs: [{ rule: NO_OP }] },
];

describe('recording events with matched runs in one batch', () => {
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
    // claim + not-matched runs, loop lookup, 2 once claims, settlement read, runs, action rows, outcome.
    expect(statements).toHaveLength(8);
  });

  it('records a batch of guarded no-ops in five statements (per event: five each)', async () => {
    const specs: EventSpec[] = Array.from({ length: 10 }, (_, i) => ({
      contact: `g${i}`,
      runs: [{ rule: NO_OP }],
    }));
    const one = await eventsOf('gone', specs);
    const all = await eventsOf('gall', specs);
    const perEventStatements: string[] = [];
    const batchStatements: string[] = [];
    const perEventResults = await perEvent(one, perEventStatements);
    const batchResults = await batched(all, batchStatements);
    expect(statusesOf(batchResults)).toEqual(specs.map(() => [['succeeded', ['no_change']]]));
    expect(statusesOf(batchResults)).toEqual(statusesOf(perEventResults));
    expect(await ledgerOf('gall', all)).toEqual(await ledgerOf('gone', one));
    expect(batchStatements).toHaveLength(5);
    expect(perEventStatements).toHaveLength(50);
  });

  it("does not settle a contact's second no-op while its first run is pending; does after a settled one", async () => {
    const behindWrite = await eventsOf('two', [
      { contact: 'x', runs: [{ rule: WRITE }] },
      { contact: 'x', runs: [{ rule: NO_OP }] },
    ]);
    expect(statusesOf(await batched(behindWrite))).toEqual([[['pending', null]], [['pending', null]]]);
    const behindNoOp = await eventsOf('two', [
      { contact: 'y', runs: [{ rule: NO_OP }] },
      { contact: 'y', runs: [{ rule: NO_OP }] },
    ]);
    expect(statusesOf(await batched(behindNoOp))).toEqual([
      [['succeeded', ['no_change']]],
      [['succeeded', ['no_change']]],
    ]);
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
    expect(ledger.runs.map((r: { event: number; status: string }) => [r.event, r.status])).toEqual([
      [0, 'succeeded'],
      [2, 'not_matched'],
      [2, 'succeeded'],
    ]);
  });

  it('writes nothing new for a repeated batch: not claimed, or (pending again) every run suppressed', async () => {
    const events = await eventsOf(
      'again',
      SCENARIO.filter((e) => !e.claimedBefore),
    );
    await batched(events);
    const before = await ledgerOf('again', events);
    expect(await batched(events)).toEqual(events.map(() => null));
    await db.dataSource.query(`UPDATE inbox_events SET status = 'pending' WHERE id = ANY($1)`, [
      events.map((e) => e.inboxEventId),
    ]);
    const again = await batched(events);
    expect(again.map((created) => created?.map((run) => run.status))).toEqual(
      events.map((e) => e.runs.map(() => 'suppressed')),
    );
    const after = await ledgerOf('again', events);
    expect(after.runs).toEqual(before.runs);
    expect(after.enrollments).toEqual(before.enrollments);
  });
});
