// Helpers of matched-events.e2e-spec.ts: rules, events of a "world" (contacts prefixed so two
// worlds never share state), both recording paths with their statements counted, and what a
// world's database holds with its ids taken out, so the two paths' results compare as equal.
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import {
  settleBatchInTransaction,
  settleFromStates,
  settleInTransaction,
} from '../../../src/pipeline/admission/settle-in-transaction';
import { recordMatchedEventsAtOnce } from '../../../src/pipeline/admission/record-matched-events-at-once';
import type { CrmDirectory } from '../../../src/outbound/crm-gateway/crm-directory.service';
import type { NewRun, PendingRun } from '../../../src/pipeline/admission/create-run';
import {
  recordMatchedEvent,
  recordMatchedEvents,
  type MatchedEvent,
} from '../../../src/pipeline/admission/record-matched-events';
import type { RuleAction, RuleDefinition } from '../../../src/language/rules/format/rule-types';

/** One trigger time for every run of these events: a recorded twice event meets its first runs. */
const TRIGGER_AT = new Date('2026-11-28T12:00:00Z');

// Names resolve from the cache only (as in the events transaction): every tag is known.
export const directory = {
  cachedOnly: () => ({ resolveTag: async (name: string) => ({ id: `tag-${name}`, name, color: '' }) }),
} as unknown as CrmDirectory;

export const rule = (id: string, actions: RuleAction[], over: Partial<RuleDefinition> = {}): RuleDefinition =>
  ({ id, version: 'v1', actions, mode: 'live', ...over }) as unknown as RuleDefinition;

export const NO_OP = rule('r-noop', [{ type: 'add-tag', tag: 'vip' }]); // the contacts have vip
export const WRITE = rule('r-write', [{ type: 'add-tag', tag: 'new' }]);
export const ONCE = rule('r-once', [{ type: 'add-tag', tag: 'new' }], { once: 'per-contact' });
export const WINDOWED = rule('r-window', [{ type: 'add-tag', tag: 'vip' }], {
  window: { days: ['mon'], from: 540, to: 1080, timezone: 'UTC', outside: 'wait' },
} as unknown as Partial<RuleDefinition>);
export const QUIET = rule('r-quiet', [{ type: 'add-tag', tag: 'x' }]);

export interface RunSpec {
  rule: RuleDefinition;
  matched?: boolean;
  shadow?: boolean;
  paused?: boolean;
  replay?: boolean;
}

export function newRun(inboxEventId: string, contactId: string, spec: RunSpec): NewRun {
  const r = spec.rule;
  return {
    triggerKey: `event:${inboxEventId}`,
    triggerAt: TRIGGER_AT,
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
export interface EventSpec {
  contact: string;
  runs: RunSpec[];
  outcome?: 'mirror_skipped';
  claimedBefore?: boolean;
}

/** Each event's returned runs as [status, settled reasons]; null for an event not claimed. */
export const statusesOf = (results: (PendingRun[] | null)[]) =>
  results.map((r) => r?.map((run) => [run.status, run.settled?.map((s) => s.reason) ?? null]) ?? null);

/** A transaction whose statements are counted. */
export function counting(tx: EntityManager, statements: string[]): EntityManager {
  return new Proxy(tx, {
    get: (target, prop, receiver) =>
      prop === 'query'
        ? (sql: string, params?: unknown[]) => (statements.push(sql), target.query(sql, params))
        : Reflect.get(target, prop, receiver),
  });
}

/** The helpers that touch the database. */
export function matchedEventsFixture(ds: DataSource) {
  async function storedEvent(contactId: string): Promise<string> {
    const [row] = await ds.query(
      `INSERT INTO inbox_events (event_key, type, payload, contact_id)
       VALUES ($1, 'contact.updated', '{"type":"contact.updated","data":{}}', $2) RETURNING id`,
      [randomUUID(), contactId],
    );
    return row.id;
  }

  async function eventsOf(world: string, specs: EventSpec[]): Promise<MatchedEvent[]> {
    const events: MatchedEvent[] = [];
    for (const spec of specs) {
      const contactId = `${world}-${spec.contact}`;
      const id = await storedEvent(contactId);
      if (spec.claimedBefore)
        await ds.query(`UPDATE inbox_events SET status = 'processed' WHERE id = $1`, [id]);
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
    const runs = await ds.query(
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
    const inbox = await ds.query(
      `SELECT id, status, outcome, last_error FROM inbox_events WHERE id = ANY($1)`,
      [ids],
    );
    const enrollments = await ds.query(
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

  /** The per-event path, each event in its own transaction, in order. */
  async function perEvent(events: MatchedEvent[], statements: string[] = []) {
    const settle = settleInTransaction(directory);
    const results: (PendingRun[] | null)[] = [];
    for (const event of events)
      results.push(await ds.transaction((tx) => recordMatchedEvent(counting(tx, statements), event, settle)));
    return results;
  }

  /** The batch path: every event in one transaction. */
  function batched(events: MatchedEvent[], statements: string[] = []) {
    return ds.transaction((tx) =>
      recordMatchedEvents(counting(tx, statements), events, settleBatchInTransaction(directory)),
    );
  }

  /** The path of two round trips on the pool: one read, then one statement that writes. */
  function atOnce(events: MatchedEvent[], statements: string[] = []) {
    const db = {
      query: (sql: string, params?: unknown[]) => (statements.push(sql), ds.query(sql, params)),
      transaction: ds.transaction.bind(ds),
    } as unknown as DataSource;
    return recordMatchedEventsAtOnce(db, events, settleFromStates(directory));
  }

  /** Before a world's events: a recent success of r-write on c3 (loop protection), a busy c8. */
  async function seed(world: string): Promise<void> {
    const [seedEvent] = await eventsOf(world, [{ contact: 'seed', runs: [] }]);
    await ds.query(
      `INSERT INTO runs (id, trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, mode, priority,
                         trace, actions, finished_at)
       VALUES ($1, $2, 'r-write', 'v1', 'set1', $3, 'succeeded', 'live', 'interactive', '[]', '[]', now()),
              ($4, $2, 'r-other', 'v1', 'set1', $5, 'pending', 'live', 'interactive', '[]', '[]', NULL)`,
      [randomUUID(), `seed:${seedEvent.inboxEventId}`, `${world}-c3`, randomUUID(), `${world}-c8`],
    );
    await ds.query(
      `INSERT INTO action_results (run_id, run_trigger_at, action_index, action, status, finished_at)
       SELECT id, trigger_at, 0, '{}', 'succeeded', now() FROM runs WHERE contact_id = $1`,
      [`${world}-c3`],
    );
  }

  return { eventsOf, ledgerOf, perEvent, batched, atOnce, seed };
}

/**
 * One batch of every kind: a settled no-op, a write with a no-op behind it, loop protection and a
 * replay, once per contact, shadow / paused / a window / an outcome, an event claimed before, a
 * contact busy in the database.
 */
export const SCENARIO: EventSpec[] = [
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

/** SCENARIO without what only the transaction writes (once per contact, an outcome to note). */
export const AT_ONCE_SCENARIO = SCENARIO.filter((e) => !e.outcome && !e.runs.some((r) => r.rule === ONCE));
