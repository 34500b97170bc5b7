import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The messaging policy counts a contact's customer messages before each one is sent
 * (ActionResultsRepository.messagesSentTo): through the contact's runs that acted. Partial: the
 * contact's `not_matched` and `suppressed` runs, most of a chatty contact's runs and never with an
 * attempted action, are left out, so the count walks only runs that may hold a message.
 */
export class AddRunsContactActedIndex1765700000000 implements MigrationInterface {
  name = 'AddRunsContactActedIndex1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_runs_contact_acted" ON "runs" ("contact_id") WHERE status NOT IN ('not_matched', 'suppressed')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_runs_contact_acted"`);
  }
}
