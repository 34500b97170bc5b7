// The write of a batch of matched events as ONE statement: their claim, their runs and the runs'
// action rows, all or nothing without a transaction, one round trip. The statement is a function
// with a cached generic plan (migration 1796020000000-MatchedEventsWrittenAtOnce): sent as text,
// Postgres parsed and planned it at every batch, most of its cost. Its three parts are those of
// InboxEventsRepository.claimUnmatched, RunsRepository.insertMany and
// ActionResultsRepository.insertForRuns, which the transaction's path still uses.
import type { Queryable } from '../sql/queryable';
import { actionRowsParam, type NewActionRows } from './action-results.repository';
import type { UnmatchedDecision } from './inbox-event.entity';
import type { RunInsert } from './run-rows';

/**
 * The claim runs first (the runs read what it returned), the runs only of events it claimed (a
 * second job of an event writes nothing), the action rows only of runs inserted (a trigger seen
 * before writes none).
 */
const WRITE_MATCHED_EVENTS = `SELECT kind, written AS id
  FROM ledger_write_matched_events($1::uuid[], $2::jsonb, $3::jsonb, $4::jsonb)`;

export interface MatchedEventsWritten {
  /** The events claimed (pending until now). */
  claimed: Set<string>;
  /** The runs inserted (of claimed events, with a trigger not seen before). */
  inserted: Set<string>;
}

export class MatchedEventWrites {
  /** `db`: the pool; the statement commits by itself. */
  constructor(private readonly db: Queryable) {}

  /**
   * Claims the events of `decisions` (id → the decision of their rules that did not match, or
   * null), inserts `runs` of those it claimed, in order, and `actions` of the runs inserted.
   */
  async write(
    decisions: ReadonlyMap<string, UnmatchedDecision | null>,
    runs: readonly RunInsert[],
    actions: readonly NewActionRows[],
  ): Promise<MatchedEventsWritten> {
    const rows: { kind: 'event' | 'run'; id: string }[] = await this.db.query(WRITE_MATCHED_EVENTS, [
      [...decisions.keys()].sort(),
      JSON.stringify(Object.fromEntries(decisions)),
      JSON.stringify(runs),
      actionRowsParam(actions) ?? '[]',
    ]);
    const written: MatchedEventsWritten = { claimed: new Set(), inserted: new Set() };
    for (const row of rows) (row.kind === 'event' ? written.claimed : written.inserted).add(row.id);
    return written;
  }
}
