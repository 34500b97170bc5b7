import type { MigrationInterface, QueryRunner } from 'typeorm';

const DAY_MS = 24 * 60 * 60 * 1000;
const AHEAD = 3;
/**
 * The key given to every row from before this migration (a constant default: metadata only, no
 * rewrite). It is inside the legacy partition's range, and whatever is derived from a legacy row
 * (a run of a legacy event, a result of a legacy run) takes it again, so their dedupe still holds.
 */
const LEGACY_AT = '2000-01-01T00:00:00.000Z';

type Q = (sql: string) => Promise<unknown>;

/**
 * `inbox_events`, `runs` and `action_results` partitioned by day (issue 35 goal 2), as the journal
 * was (1795884123819): each table as it stands becomes `<table>_legacy`, the partition of everything
 * before the day after this migration; nothing is copied. The keys:
 *
 * - `inbox_events.event_at`: the signed body's `createdAt` when it holds one (a resend is the same
 *   body, so the same day: `UNIQUE (event_key, event_at)` still refuses it), else the arrival.
 * - `runs.trigger_at`: its trigger's time (the event's `event_at`, a sweep's tick, a bulk run's
 *   creation), so a trigger retried after midnight still meets its runs:
 *   `UNIQUE (trigger_key, rule_id, contact_id, trigger_at)`.
 * - `action_results.run_trigger_at`: its run's, so a run and its results share a day and go
 *   together; the foreign key becomes `(run_id, run_trigger_at)`.
 *
 * A unique index of a partitioned table must hold the partition key. The legacy partitions keep
 * their old unique indexes without it, and inserts name no conflict target (every unique index
 * arbitrates): a resend of a delivery from before the migration lands in the legacy range (its
 * `createdAt` is old) and meets its row there. `runs.inbox_event_id` loses its foreign key (a
 * run's day may outlive its event's; the join finds nothing, as SET NULL did).
 */
export class PartitionLedgerByDay1795990000000 implements MigrationInterface {
  name = 'PartitionLedgerByDay1795990000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const q: Q = (sql) => queryRunner.query(sql);
    const [{ newest }]: { newest: Date | null }[] = await queryRunner.query(
      `SELECT greatest((SELECT max(received_at) FROM inbox_events), (SELECT max(created_at) FROM runs)) AS newest`,
    );
    // The legacy range must hold the time of every event received before (a resend of one must meet
    // it there): up to the day after the newest. An empty ledger has no past: today is a day.
    const latest = Math.max(Date.now(), newest ? new Date(newest).getTime() : 0);
    const boundary = new Date((Math.floor(latest / DAY_MS) + (newest ? 1 : 0)) * DAY_MS).toISOString();

    for (const fn of LEDGER_ID_FUNCTIONS) await q(fn);
    await q(`ALTER TABLE action_results DROP CONSTRAINT "FK_action_results_run"`);
    await q(`ALTER TABLE runs DROP CONSTRAINT "FK_runs_inbox_event"`);

    await toLegacy(q, 'inbox_events', 'event_at', [
      'UQ_inbox_events_event_key',
      ...INBOX_INDEXES.map((i) => i[0]),
    ]);
    await q(`CREATE UNIQUE INDEX "UQ_inbox_events_event_key" ON inbox_events (event_key, event_at)`);
    for (const [name, def] of INBOX_INDEXES) await q(`CREATE INDEX "${name}" ON inbox_events ${def}`);
    await attachLegacy(q, 'inbox_events', 'event_at', boundary);

    await q(`ALTER SEQUENCE runs_seq_seq RENAME TO runs_legacy_seq_seq`);
    await toLegacy(q, 'runs', 'trigger_at', [
      'UQ_runs_trigger_rule_contact',
      ...RUN_INDEXES.map((i) => i[0]),
    ]);
    const [{ next }]: { next: string }[] = await queryRunner.query(
      `SELECT coalesce(max(seq), 0) + 1 AS next FROM runs_legacy`,
    );
    // The order of one trigger's runs goes on from the legacy past (RunsRepository's `seq`).
    await q(
      `ALTER TABLE runs ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (START WITH ${Number(next)})`,
    );
    await q(
      `CREATE UNIQUE INDEX "UQ_runs_trigger_rule_contact" ON runs (trigger_key, rule_id, contact_id, trigger_at)`,
    );
    for (const [name, def] of RUN_INDEXES) await q(`CREATE INDEX "${name}" ON runs ${def}`);
    await attachLegacy(q, 'runs', 'trigger_at', boundary);

    await toLegacy(q, 'action_results', 'run_trigger_at', [
      'UQ_action_results_run_index',
      ...RESULT_INDEXES.map((i) => i[0]),
    ]);
    await q(
      `CREATE UNIQUE INDEX "UQ_action_results_run_index" ON action_results (run_id, action_index, run_trigger_at)`,
    );
    for (const [name, def] of RESULT_INDEXES) await q(`CREATE INDEX "${name}" ON action_results ${def}`);
    // No default: a result's day is its run's, which the foreign key below holds it to.
    await q(`ALTER TABLE action_results ALTER COLUMN run_trigger_at DROP DEFAULT`);
    await attachLegacy(q, 'action_results', 'run_trigger_at', boundary);
    // Checks every result against its run once (legacy results and runs both carry LEGACY_AT).
    await q(`ALTER TABLE action_results ADD CONSTRAINT "FK_action_results_run" FOREIGN KEY (run_id, run_trigger_at)
               REFERENCES runs (id, trigger_at) ON DELETE CASCADE`);
    // An id that names a day names its row's (legacy rows' v4 ids name none): a look-up by id that
    // reads only that day cannot miss the row.
    for (const [table, key] of KEYS) {
      await q(`ALTER TABLE ${table} ADD CONSTRAINT "CHK_${table}_id_day"
                 CHECK (${key} >= ledger_day_from(id) AND ${key} < ledger_day_to(id))`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const q: Q = (sql) => queryRunner.query(sql);
    for (const [table, key] of [
      ['action_results', 'run_trigger_at'],
      ['runs', 'trigger_at'],
      ['inbox_events', 'event_at'],
    ] as const) {
      await q(`CREATE TABLE ${table}_flat (LIKE ${table} INCLUDING DEFAULTS)`);
      await q(`INSERT INTO ${table}_flat SELECT * FROM ${table}`);
      await q(`ALTER TABLE ${table}_flat DROP COLUMN ${key}`);
    }
    await q(`DROP TABLE action_results`);
    await q(`DROP TABLE runs`);
    await q(`DROP TABLE inbox_events`);
    for (const table of ['action_results', 'runs', 'inbox_events']) {
      await q(`ALTER TABLE ${table}_flat RENAME TO ${table}`);
      await q(`ALTER TABLE ${table} ADD CONSTRAINT "PK_${table}" PRIMARY KEY (id)`);
    }
    // One row per key again: twins written on different days keep the earliest.
    await q(`DELETE FROM inbox_events a USING inbox_events b
              WHERE a.event_key = b.event_key AND (a.received_at, a.id) > (b.received_at, b.id)`);
    await q(`DELETE FROM runs a USING runs b WHERE a.trigger_key = b.trigger_key AND a.rule_id = b.rule_id
               AND a.contact_id = b.contact_id AND a.seq > b.seq`);
    await q(`DELETE FROM action_results a WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = a.run_id)`);
    const [{ next }]: { next: string }[] = await queryRunner.query(
      `SELECT coalesce(max(seq), 0) + 1 AS next FROM runs`,
    );
    await q(
      `ALTER TABLE runs ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (START WITH ${Number(next)})`,
    );
    await q(`CREATE UNIQUE INDEX "UQ_inbox_events_event_key" ON inbox_events (event_key)`);
    for (const [name, def] of INBOX_INDEXES) await q(`CREATE INDEX "${name}" ON inbox_events ${def}`);
    await q(`CREATE UNIQUE INDEX "UQ_runs_trigger_rule_contact" ON runs (trigger_key, rule_id, contact_id)`);
    for (const [name, def] of RUN_INDEXES) await q(`CREATE INDEX "${name}" ON runs ${def}`);
    await q(`CREATE UNIQUE INDEX "UQ_action_results_run_index" ON action_results (run_id, action_index)`);
    for (const [name, def] of RESULT_INDEXES) await q(`CREATE INDEX "${name}" ON action_results ${def}`);
    await q(`ALTER TABLE runs ADD CONSTRAINT "FK_runs_inbox_event" FOREIGN KEY (inbox_event_id)
               REFERENCES inbox_events (id) ON DELETE SET NULL`);
    await q(`ALTER TABLE action_results ADD CONSTRAINT "FK_action_results_run" FOREIGN KEY (run_id)
               REFERENCES runs (id) ON DELETE CASCADE`);
    for (const fn of ['ledger_uuid(timestamptz)', 'ledger_days_to(uuid[])', 'ledger_days_from(uuid[])'])
      await q(`DROP FUNCTION ${fn}`);
    await q(`DROP FUNCTION ledger_day_to(uuid)`);
    await q(`DROP FUNCTION ledger_day_from(uuid)`);
  }
}

const KEYS = [
  ['inbox_events', 'event_at'],
  ['runs', 'trigger_at'],
  ['action_results', 'run_trigger_at'],
] as const;

/**
 * Ledger ids name their day (src/persistence/partitions/ledger-id.ts, the same arithmetic): a
 * UUIDv7 whose first 48 bits are the milliseconds of the row's key. The day functions are
 * immutable, so Postgres folds them for a bound id at planning and prunes to that day; an id that
 * is not v7 names (-infinity, infinity): every day. PL/pgSQL, not SQL: a SQL function is inlined,
 * its body parsed again at every planning (the list forms even planned as a query of their own),
 * where PL/pgSQL keeps its compiled body and plans per session (bench:compare measured the SQL
 * forms at +0.4 ms of Postgres CPU per event).
 */
const LEDGER_ID_FUNCTIONS = [
  `CREATE FUNCTION ledger_day_from(id uuid) RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
   BEGIN
     IF substr(id::text, 15, 1) <> '7' THEN RETURN '-infinity'; END IF;
     RETURN to_timestamp(floor(('x' || substr(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint / 86400000.0) * 86400);
   END $$`,
  `CREATE FUNCTION ledger_day_to(id uuid) RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
   BEGIN
     IF substr(id::text, 15, 1) <> '7' THEN RETURN 'infinity'; END IF;
     RETURN to_timestamp((floor(('x' || substr(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint / 86400000.0) + 1) * 86400);
   END $$`,
  `CREATE FUNCTION ledger_days_from(ids uuid[]) RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
   DECLARE i uuid; d timestamptz; lo timestamptz := 'infinity';
   BEGIN
     FOREACH i IN ARRAY ids LOOP d := ledger_day_from(i); IF d < lo THEN lo := d; END IF; END LOOP;
     RETURN lo;
   END $$`,
  `CREATE FUNCTION ledger_days_to(ids uuid[]) RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
   DECLARE i uuid; d timestamptz; hi timestamptz := '-infinity';
   BEGIN
     FOREACH i IN ARRAY ids LOOP d := ledger_day_to(i); IF d > hi THEN hi := d; END IF; END LOOP;
     RETURN hi;
   END $$`,
  // A v7 id for a row whose key is `at` (volatile: random bits), as ledgerId() makes in the engine.
  `CREATE FUNCTION ledger_uuid(at timestamptz) RETURNS uuid LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE AS $$
   BEGIN
     RETURN encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
       substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid;
   END $$`,
];

/** The indexes that keep their definition (the partitioned parent builds them on each day). */
const INBOX_INDEXES: readonly [string, string][] = [
  ['IDX_inbox_events_pending', `(received_at) WHERE status = 'pending'`],
  ['IDX_inbox_events_failed', `(received_at) WHERE status = 'failed'`],
  ['IDX_inbox_events_processed', `(received_at) WHERE status = 'processed'`],
  ['IDX_inbox_events_contact_not_found', `(received_at) WHERE outcome = 'contact_not_found'`],
];
const RUN_INDEXES: readonly [string, string][] = [
  ['IDX_runs_contact_acted', `(contact_id) WHERE status NOT IN ('not_matched', 'suppressed')`],
  ['IDX_runs_contact_created', `(contact_id, created_at)`],
  [
    'IDX_runs_contact_unfinished',
    `(contact_id, created_at) WHERE status IN ('pending', 'running', 'waiting')`,
  ],
  ['IDX_runs_created', `(created_at)`],
  [
    'IDX_runs_goal_enrolled',
    `(contact_id, goal_until) WHERE goal_until IS NOT NULL AND goal_reached_at IS NULL`,
  ],
  ['IDX_runs_limited_rule_updated', `(rule_id, updated_at) WHERE timing ? 'limit'`],
  ['IDX_runs_rule_created', `(rule_id, created_at)`],
  ['IDX_runs_unfinished', `(updated_at) WHERE status IN ('pending', 'running')`],
  ['IDX_runs_waiting', `(contact_id, waiting_until) WHERE status = 'waiting'`],
];
const RESULT_INDEXES: readonly [string, string][] = [
  ['IDX_action_results_status', `(status)`],
  [
    'IDX_action_results_message_skips',
    `(finished_at) WHERE status = 'skipped' AND reason IN ('needs_assignee', 'contact_blocked',
       'channel_not_connected', 'policy_cap', 'quiet_hours', 'outside_window', 'pool_full', 'pool_empty')`,
  ],
];

/**
 * Renames the table and its indexes `<table>_legacy…`, gives it the key column (constant default:
 * no rewrite) and a key `(id, <key>)` (one index build), and creates the partitioned parent in its
 * place with the same columns; the parent's key column defaults to now().
 */
async function toLegacy(q: Q, table: string, key: string, indexes: readonly string[]): Promise<void> {
  const legacy = `${table}_legacy`;
  await q(`ALTER TABLE ${table} RENAME TO ${legacy}`);
  await q(`ALTER TABLE ${legacy} ADD COLUMN ${key} timestamptz NOT NULL DEFAULT '${LEGACY_AT}'`);
  await q(`ALTER TABLE ${legacy} DROP CONSTRAINT "PK_${table}",
             ADD CONSTRAINT "PK_${legacy}" PRIMARY KEY (id, ${key})`);
  for (const index of indexes) {
    await q(`ALTER INDEX "${index}" RENAME TO "${index.replace(table, legacy)}"`);
  }
  await q(
    `CREATE TABLE ${table} (LIKE ${legacy} INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (${key})`,
  );
  await q(`ALTER TABLE ${table} ALTER COLUMN ${key} SET DEFAULT now()`);
  await q(`ALTER TABLE ${table} ADD CONSTRAINT "PK_${table}" PRIMARY KEY (id, ${key})`);
}

/**
 * Attaches the legacy table as the range up to `boundary` (a validated CHECK spares the attach its
 * scan), then the DEFAULT partition and the days ahead.
 */
async function attachLegacy(q: Q, table: string, key: string, boundary: string): Promise<void> {
  const legacy = `${table}_legacy`;
  await q(`ALTER TABLE ${legacy} ADD CONSTRAINT ${legacy}_range CHECK (${key} < '${boundary}') NOT VALID`);
  await q(`ALTER TABLE ${legacy} VALIDATE CONSTRAINT ${legacy}_range`);
  await q(`ALTER TABLE ${table} ATTACH PARTITION ${legacy} FOR VALUES FROM (MINVALUE) TO ('${boundary}')`);
  await q(`CREATE TABLE ${table}_default PARTITION OF ${table} DEFAULT`);
  for (let i = 0; i < AHEAD; i++) {
    const from = new Date(new Date(boundary).getTime() + i * DAY_MS);
    const stamp = from.toISOString().slice(0, 10).replace(/-/g, '');
    const to = new Date(from.getTime() + DAY_MS).toISOString();
    await q(
      `CREATE TABLE ${table}_p${stamp} PARTITION OF ${table} FOR VALUES FROM ('${from.toISOString()}') TO ('${to}')`,
    );
  }
}
