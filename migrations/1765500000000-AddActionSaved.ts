import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an http-request saved from its answer (`save:`), stored with its success so later steps of
 * the run read the same values after a retry or a restart ({{steps.<name>.<key>}}).
 */
export class AddActionSaved1765500000000 implements MigrationInterface {
  name = 'AddActionSaved1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "action_results" ADD "saved" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "action_results" DROP COLUMN "saved"`);
  }
}
