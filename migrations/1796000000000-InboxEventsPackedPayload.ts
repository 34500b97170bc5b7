import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event no rule matched keeps its payload packed once processed (issue 35 goal 1,
 * src/persistence/ledger/packed-payload.ts): `payload` may then be NULL, never together with
 * `payload_packed`; its previous contact state likewise (`previous_packed`). Metadata only: no row
 * is rewritten, and the check is NOT VALID because every row before it has its payload (the
 * column was NOT NULL); partitions made later check theirs.
 */
export class InboxEventsPackedPayload1796000000000 implements MigrationInterface {
  name = 'InboxEventsPackedPayload1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbox_events" ADD COLUMN "payload_packed" bytea`);
    await queryRunner.query(`ALTER TABLE "inbox_events" ADD COLUMN "previous_packed" bytea`);
    await queryRunner.query(`ALTER TABLE "inbox_events" ALTER COLUMN "payload" DROP NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "inbox_events" ADD CONSTRAINT "CHK_inbox_events_payload_kept"
         CHECK (payload IS NOT NULL OR payload_packed IS NOT NULL) NOT VALID`,
    );
  }

  /** Refused while a row is packed: its payload would be lost (the engine unpacks, SQL cannot). */
  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ n }]: { n: number }[] = await queryRunner.query(
      `SELECT count(*)::int AS n FROM inbox_events WHERE payload IS NULL OR previous_packed IS NOT NULL`,
    );
    if (n > 0)
      throw new Error(
        `${n} inbox events keep their payload packed only; reverting would lose them. ` +
          'Prune them first (retention) or keep this migration.',
      );
    await queryRunner.query(`ALTER TABLE "inbox_events" DROP CONSTRAINT "CHK_inbox_events_payload_kept"`);
    await queryRunner.query(`ALTER TABLE "inbox_events" ALTER COLUMN "payload" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "inbox_events" DROP COLUMN "previous_packed"`);
    await queryRunner.query(`ALTER TABLE "inbox_events" DROP COLUMN "payload_packed"`);
  }
}
