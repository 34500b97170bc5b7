import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One "mirror updated" entry per version of a contact: the action runner mirrors the CRM's answer
 * to its write, then the CRM's contact.updated webhook brings the same version again, and the
 * contact timeline showed two identical lines for one CRM call. The journal's insert skips an
 * entry of a version it has (ON CONFLICT DO NOTHING). Existing twins are removed first (the
 * earliest of each is kept).
 */
export class AddJournalMirrorVersionUnique1766050000001 implements MigrationInterface {
  name = 'AddJournalMirrorVersionUnique1766050000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM contact_journal a USING contact_journal b
        WHERE a.kind = 'mirror.updated' AND b.kind = 'mirror.updated' AND a.contact_id = b.contact_id
          AND a.detail->>'updatedAt' = b.detail->>'updatedAt' AND a.id > b.id`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_contact_journal_mirror_version" ON "contact_journal" ("contact_id", (detail->>'updatedAt')) WHERE kind = 'mirror.updated'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_contact_journal_mirror_version"`);
  }
}
