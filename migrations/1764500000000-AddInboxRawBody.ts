import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The exact text of a delivery whose payload jsonb cannot hold as is (a \u0000): kept losslessly. */
export class AddInboxRawBody1764500000000 implements MigrationInterface {
  name = 'AddInboxRawBody1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" ADD "raw_body" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" DROP COLUMN "raw_body"`);
  }
}
