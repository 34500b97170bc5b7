import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom sources' events whose contact could not be found end processed with outcome
 * contact_not_found; the console's failures page lists the newest of them. A partial index keeps
 * that read off the rest of the inbox (it holds none of the ordinary processed events).
 */
export class AddInboxContactNotFoundIndex1765800000000 implements MigrationInterface {
  name = 'AddInboxContactNotFoundIndex1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_inbox_events_contact_not_found" ON "inbox_events" ("received_at") WHERE outcome = 'contact_not_found'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_inbox_events_contact_not_found"`);
  }
}
