import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who works on a contact now: a lease row instead of a session advisory lock, so an action job
 * waiting for CRM budget holds no Postgres connection (src/ledger/contact-leases.repository.ts).
 */
export class CreateContactLeases1764300000000 implements MigrationInterface {
  name = 'CreateContactLeases1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "contact_leases" (
        "contact_id" text PRIMARY KEY,
        "holder" text NOT NULL,
        "expires_at" timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "contact_leases"`);
  }
}
