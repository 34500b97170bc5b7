import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contact before the engine's last write, and the updatedAt that write returned: the CRM's
 * webhook for the engine's own write compares with the state before it (change operators), so a
 * rule on `added: vip` sees the tag another rule just added (issue 34).
 */
export class AddMirrorEngineBefore1766080000000 implements MigrationInterface {
  name = 'AddMirrorEngineBefore1766080000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "contact_mirror" ADD "engine_before" jsonb`);
    await queryRunner.query(`ALTER TABLE "contact_mirror" ADD "engine_written_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "contact_mirror" DROP COLUMN "engine_written_at"`);
    await queryRunner.query(`ALTER TABLE "contact_mirror" DROP COLUMN "engine_before"`);
  }
}
