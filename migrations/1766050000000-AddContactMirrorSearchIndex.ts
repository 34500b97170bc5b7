import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console finds contacts by name, phone or email ("Dana" finds Dana Demo): a substring match
 * on one lower-cased text of the three, kept cheap by a trigram index (pg_trgm, a trusted
 * extension since Postgres 13: the database owner may create it). ContactMirrorRepository.search
 * writes the same expression, so the planner uses the index.
 */
export class AddContactMirrorSearchIndex1766050000000 implements MigrationInterface {
  name = 'AddContactMirrorSearchIndex1766050000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE INDEX "IDX_contact_mirror_search" ON "contact_mirror" USING gin ((lower(name || ' ' || phone || ' ' || coalesce(email, ''))) gin_trgm_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_contact_mirror_search"`);
  }
}
