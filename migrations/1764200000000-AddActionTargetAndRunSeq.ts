import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `action_results.target`: what an attempt aimed at, recorded before the CRM call (the
 * conversation of a message, the member a round-robin drew), so a repeat after an unclear
 * outcome looks the write up where it was made and assigns the same member.
 * `runs.seq`: insertion order. The runs of one event share `created_at` and are inserted in rule
 * priority order, so (created_at, seq) is trigger order, then priority order.
 */
export class AddActionTargetAndRunSeq1764200000000 implements MigrationInterface {
  name = 'AddActionTargetAndRunSeq1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "action_results" ADD "target" jsonb`);
    await q.query(`ALTER TABLE "runs" ADD "seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "runs" DROP COLUMN "seq"`);
    await q.query(`ALTER TABLE "action_results" DROP COLUMN "target"`);
  }
}
