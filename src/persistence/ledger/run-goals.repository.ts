// The statements on `runs` about a rule's goal and the runs a later event about a contact may end:
// its waiting runs, and its succeeded runs still enrolled for their goal (goal_until, set when the
// run finishes) that have not converted yet. Not a repository of its own: RunsRepository holds one
// as `goals` (one repository per table, its statements kept in three files: writes, views, goals).
import type { Queryable } from '../sql/queryable';
import type { RunRow } from './run-rows';
import type { TimelineEntry } from './run-timeline-entry';
import { returnedRows } from '../sql/returned-rows';
import { sameDay } from '../partitions/ledger-id';

/**
 * `goal_until` of a run finishing with status $2: a succeeded run whose plan has a goal stays
 * enrolled for its window (`timing.goalWithinMs`); any other run, or one without a goal, is not.
 */
export const GOAL_UNTIL = `CASE WHEN $2::text = 'succeeded' AND timing ? 'goal'
  THEN now() + (timing->>'goalWithinMs')::bigint * interval '1 millisecond' END`;

/** The goal's statements, over the same pool, transaction or connection as the repository. */
export class RunGoals {
  constructor(private readonly db: Queryable) {}

  /**
   * The runs of these contacts (a batch of events) a later event may end or convert, oldest first:
   * waiting runs, and succeeded runs in their goal window not converted yet, as RunRow. One
   * statement on two partial indexes (IDX_runs_waiting, IDX_runs_goal_enrolled): rules without waits
   * or goals add nothing.
   */
  endableByEventOf(contactIds: string[]): Promise<RunRow[]> {
    // A function with a cached plan (migration 1796010000000): no day narrows it, so as a plain
    // statement Postgres planned it against every daily partition at every event.
    return this.db.query(`SELECT * FROM runs_endable_by_event($1::text[])`, [contactIds]);
  }

  /**
   * A later event met the goal of a succeeded run within its window: the conversion is recorded
   * (once; the run's status and actions are untouched). False when it converted already or its window ended.
   */
  async recordConversion(runId: string, entry: TimelineEntry): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE runs SET goal_reached_at = now(), timeline = timeline || $2::jsonb
        WHERE id = $1 AND ${sameDay('trigger_at', '$1')} AND goal_reached_at IS NULL AND goal_until > now() RETURNING id`,
      [runId, JSON.stringify([entry])],
    );
    return returnedRows(rows).length > 0;
  }
}
