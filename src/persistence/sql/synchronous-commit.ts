// One statement committed synchronously, in one round trip, on a pool whose default is
// asynchronous commit (src/persistence/schema/data-source.ts). set_config(..., true) applies to the
// statement's own transaction (the implicit one of an autocommit statement, or the caller's), and
// Postgres reads synchronous_commit when it commits, after the statement ran. The form it replaces,
// BEGIN; SET LOCAL synchronous_commit = on; <statement>; COMMIT, took four round trips. Checked by
// test/persistence/ledger/synchronous-commit.e2e-spec.ts (one WAL flush per statement).

/** A FROM item (alias `sync`) that turns synchronous commit on for the statement's transaction. */
export const SYNC_COMMIT_FROM = `(SELECT set_config('synchronous_commit', 'on', true) AS commit_mode) sync`;

/** The RETURNING item that says it did (`commit_mode`). */
export const SYNC_COMMIT_MODE = `sync.commit_mode`;

/**
 * Throws unless every row returned says synchronous commit was on. No row: nothing was written,
 * so nothing needed to be durable.
 */
export function assertSynchronous(rows: readonly { commit_mode: string }[]): void {
  const mode = rows.find((r) => r.commit_mode !== 'on')?.commit_mode;
  if (mode !== undefined) throw new Error(`ledger write committed with synchronous_commit=${mode}`);
}
