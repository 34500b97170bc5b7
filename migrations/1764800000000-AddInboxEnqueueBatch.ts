import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The intake enqueues a group commit's events as one events job named after this key: the
 * reconciler finds a pending event's job through it (no job per event to look up).
 */
export class AddInboxEnqueueBatch1764800000000 implements MigrationInterface {
  name = 'AddInboxEnqueueBatch1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" ADD "batch_key" uuid`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" DROP COLUMN "batch_key"`);
  }
}
