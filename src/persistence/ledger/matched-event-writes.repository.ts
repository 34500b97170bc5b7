// The write of a batch of matched events as ONE statement: their claim, their runs and the runs'
// action rows. Each table's SQL is its own repository's (claimSql, insertRunsFromJsonSql,
// insertActionRowsSql); this file only chains them, so that one autocommitted statement is what a
// transaction of three statements (and its BEGIN and COMMIT) was: all or nothing, one round trip.
import type { Queryable } from '../sql/queryable';
import { actionRowsParam, insertActionRowsSql, type NewActionRows } from './action-results.repository';
import { claimSql } from './inbox-events.repository';
import type { UnmatchedDecision } from './inbox-event.entity';
import type { RunInsert } from './run-rows';
import { insertRunsFromJsonSql } from './runs.repository';
import { withRuleSetRefs } from './rule-set-refs.repository';

/**
 * Data-modifying CTEs: the claim runs first (the runs read what it returned), the runs only of
 * events it claimed (a second job of an event writes nothing), the action rows only of runs
 * inserted (a trigger seen before writes none). Postgres runs every part exactly once whatever the
 * final SELECT reads. `refsCte`: the decisions' reference rows, or '' (withRuleSetRefs).
 */
function writeMatchedEvents(refsCte: string): string {
  return `WITH ${refsCte && `${refsCte},`} claimed AS (${claimSql('$1', '$2')}),
     inserted AS (${insertRunsFromJsonSql(`WHERE x."inboxEventId" IN (SELECT id FROM claimed)`, '$3')}
       ON CONFLICT DO NOTHING RETURNING id),
     acted AS (${insertActionRowsSql('$4', `WHERE r."runId" IN (SELECT id FROM inserted)`)})
SELECT 'event' AS kind, id FROM claimed UNION ALL SELECT 'run', id FROM inserted`;
}

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
    const rows: { kind: 'event' | 'run'; id: string }[] = await withRuleSetRefs(
      this.db,
      decisions,
      '$2',
      (refs) =>
        this.db.query(writeMatchedEvents(refs), [
          [...decisions.keys()].sort(),
          JSON.stringify(Object.fromEntries(decisions)),
          JSON.stringify(runs),
          actionRowsParam(actions) ?? '[]',
        ]),
    );
    const written: MatchedEventsWritten = { claimed: new Set(), inserted: new Set() };
    for (const row of rows) (row.kind === 'event' ? written.claimed : written.inserted).add(row.id);
    return written;
  }
}
