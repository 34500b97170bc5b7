// Whether the embedded demo may empty the database it is about to use. The demo's clean-up
// (demo-state.repository.ts) erases the ledger: the once / at-most-once history of every rule. It
// runs only on a database the demo itself marked (demo_marker); a start that looks like the demo
// (ROLE=all, no CRM_BASE_URL) against a production setting or a database holding someone's data
// is refused, and nothing is erased. Pure: no I/O.

export interface DemoDatabaseState {
  nodeEnv: string;
  /** The demo_marker row is there: the demo created this database. */
  marked: boolean;
  /** The CRM-derived tables holding at least one row. */
  tablesWithRows: readonly string[];
  /** The database's name (from DATABASE_URL's path; never the URL, which may carry a password). */
  database: string;
}

export type DemoDatabaseVerdict = { kind: 'clean'; mark: boolean } | { kind: 'refuse'; message: string };

const NOTHING_ERASED = 'The start is refused and nothing was erased.';

export function demoDatabaseVerdict(s: DemoDatabaseState): DemoDatabaseVerdict {
  if (s.nodeEnv === 'production')
    return {
      kind: 'refuse',
      message:
        'NODE_ENV=production with ROLE=all and no CRM_BASE_URL: this start would run the embedded demo ' +
        'sandbox, which empties the ledger (runs, action_results, enrollments, inbox_events, ' +
        `webhook_subscriptions). ${NOTHING_ERASED} Set CRM_BASE_URL and CRM_API_KEY to the real CRM.`,
    };
  if (s.marked) return { kind: 'clean', mark: false };
  if (s.tablesWithRows.length === 0) return { kind: 'clean', mark: true };
  return {
    kind: 'refuse',
    message:
      `database "${s.database}" holds rows (${s.tablesWithRows.join(', ')}) but no demo marker: the ` +
      'embedded demo did not create it. With ROLE=all and no CRM_BASE_URL this start would run the ' +
      `demo, which empties those tables. ${NOTHING_ERASED} Set CRM_BASE_URL for a real CRM, or give ` +
      'the demo a database of its own (DATABASE_URL); a database left by a demo from before the ' +
      'marker existed has to be dropped once.',
  };
}

/** Why the embedded demo did not start (demoDatabaseVerdict's message). */
export class DemoRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DemoRefusedError';
  }
}
