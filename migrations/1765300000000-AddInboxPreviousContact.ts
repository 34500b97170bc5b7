import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Change operators (`changedTo`, `added`) compare an event's contact with the contact as the
 * engine knew it before: that previous state is captured with the mirror upsert and kept on the
 * event, so a retried job compares with the same state. NULL: not captured (no rule needed it).
 */
export class AddInboxPreviousContact1765300000000 implements MigrationInterface {
  name = 'AddInboxPreviousContact1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" ADD "previous_contact" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" DROP COLUMN "previous_contact"`);
  }
}
