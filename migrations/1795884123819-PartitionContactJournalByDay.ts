import type { MigrationInterface, QueryRunner } from 'typeorm';

const DAY_MS = 24 * 60 * 60 * 1000;
const AHEAD = 3;

/** `contact_journal_pYYYYMMDD` for [day, day + 1): the names of ledger-partitions.ts. */
function dayPartition(day: Date): { name: string; from: string; to: string } {
  const stamp = day.toISOString().slice(0, 10).replace(/-/g, '');
  return {
    name: `contact_journal_p${stamp}`,
    from: day.toISOString(),
    to: new Date(day.getTime() + DAY_MS).toISOString(),
  };
}

/**
 * The contact journal partitioned by day of `at` (issue 35 goal 2), so that retention drops a day
 * instead of deleting its rows. Nothing is copied or rewritten (the journal is locked for the
 * migration's transaction: one read for the CHECK, two index builds, the key and the version's): the table as it stands (whatever
 * columns it has) becomes `contact_journal_legacy`, the partition of everything before the day
 * after the newest entry; a CHECK validated first spares the attach its scan. The parent takes the
 * old names; the days after the legacy range are created ahead (the retention job keeps creating
 * them) and a DEFAULT partition takes any row outside every day, so no insert can fail.
 *
 * A unique index of a partitioned table must hold the partition key: the one mirror.updated entry
 * per contact version (UQ_contact_journal_mirror_version) now holds `at`, which the journal sets to
 * the version's `updatedAt` for those entries, so the two notes of one version still collide.
 */
export class PartitionContactJournalByDay1795884123819 implements MigrationInterface {
  name = 'PartitionContactJournalByDay1795884123819';

  async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    const [{ newest }]: { newest: Date | null }[] = await queryRunner.query(
      `SELECT max(at) AS newest FROM contact_journal`,
    );
    const latest = Math.max(Date.now(), newest ? new Date(newest).getTime() : 0);
    const boundary = new Date((Math.floor(latest / DAY_MS) + 1) * DAY_MS);

    await q(`ALTER TABLE contact_journal RENAME TO contact_journal_legacy`);
    // The parent's key holds `at`; the partition's must be the same (one index build).
    await q(`ALTER TABLE contact_journal_legacy DROP CONSTRAINT "PK_contact_journal",
               ADD CONSTRAINT "PK_contact_journal_legacy" PRIMARY KEY (id, at)`);
    await q(`ALTER INDEX "IDX_contact_journal_at" RENAME TO "IDX_contact_journal_legacy_at"`);
    await q(`ALTER INDEX "IDX_contact_journal_contact_at" RENAME TO "IDX_contact_journal_legacy_contact_at"`);
    // Kept on the past: a note of a version from before the migration (dated by the version, so in
    // this partition) still meets the note the past holds of it, dated when it was noted.
    await q(
      `ALTER INDEX "UQ_contact_journal_mirror_version" RENAME TO "UQ_contact_journal_legacy_mirror_version"`,
    );

    await q(`CREATE TABLE contact_journal (LIKE contact_journal_legacy INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
               PARTITION BY RANGE (at)`);
    await q(`ALTER SEQUENCE contact_journal_id_seq OWNED BY contact_journal.id`);
    await q(`ALTER TABLE contact_journal ADD CONSTRAINT "PK_contact_journal" PRIMARY KEY (id, at)`);
    await q(`CREATE INDEX "IDX_contact_journal_at" ON contact_journal (at)`);
    await q(`CREATE INDEX "IDX_contact_journal_contact_at" ON contact_journal (contact_id, at)`);
    await q(`CREATE UNIQUE INDEX "UQ_contact_journal_mirror_version" ON contact_journal
               (contact_id, (detail->>'updatedAt'), at) WHERE kind = 'mirror.updated'`);
    // A read of the table, not a rewrite; with it the attach below needs no scan of its own.
    await q(`ALTER TABLE contact_journal_legacy ADD CONSTRAINT contact_journal_legacy_range
               CHECK (at < '${boundary.toISOString()}') NOT VALID`);
    await q(`ALTER TABLE contact_journal_legacy VALIDATE CONSTRAINT contact_journal_legacy_range`);
    // The indexes that match (by at, by contact and at, the key) are attached as they are; the
    // version index, which gains `at`, is built on the partition here.
    await q(`ALTER TABLE contact_journal ATTACH PARTITION contact_journal_legacy
               FOR VALUES FROM (MINVALUE) TO ('${boundary.toISOString()}')`);
    await q(`CREATE TABLE contact_journal_default PARTITION OF contact_journal DEFAULT`);
    for (let i = 0; i < AHEAD; i++) {
      const p = dayPartition(new Date(boundary.getTime() + i * DAY_MS));
      await q(
        `CREATE TABLE ${p.name} PARTITION OF contact_journal FOR VALUES FROM ('${p.from}') TO ('${p.to}')`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`CREATE TABLE contact_journal_flat (LIKE contact_journal INCLUDING DEFAULTS)`);
    await q(`INSERT INTO contact_journal_flat SELECT * FROM contact_journal`);
    await q(`ALTER SEQUENCE contact_journal_id_seq OWNED BY contact_journal_flat.id`);
    await q(`DROP TABLE contact_journal`);
    await q(`ALTER TABLE contact_journal_flat RENAME TO contact_journal`);
    await q(`ALTER TABLE contact_journal ADD CONSTRAINT "PK_contact_journal" PRIMARY KEY (id)`);
    await q(`CREATE INDEX "IDX_contact_journal_at" ON contact_journal (at)`);
    await q(`CREATE INDEX "IDX_contact_journal_contact_at" ON contact_journal (contact_id, at)`);
    // One entry per version again: twins noted at different times lose all but the earliest.
    await q(`DELETE FROM contact_journal a USING contact_journal b
              WHERE a.kind = 'mirror.updated' AND b.kind = 'mirror.updated' AND a.contact_id = b.contact_id
                AND a.detail->>'updatedAt' = b.detail->>'updatedAt' AND a.id > b.id`);
    await q(`CREATE UNIQUE INDEX "UQ_contact_journal_mirror_version" ON contact_journal
               (contact_id, (detail->>'updatedAt')) WHERE kind = 'mirror.updated'`);
  }
}
