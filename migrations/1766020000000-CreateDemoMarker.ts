import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The embedded demo's mark on a database it created (one row, id 1). The demo empties the
 * CRM-derived tables at each start only where this row is: a database holding a real ledger
 * (runs, events, but no mark) is never erased by a start that looks like the demo
 * (src/tooling/demo/demo-database.ts).
 */
export class CreateDemoMarker1766020000000 implements MigrationInterface {
  name = 'CreateDemoMarker1766020000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "demo_marker" (
      "id" smallint NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_demo_marker" PRIMARY KEY ("id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "demo_marker"`);
  }
}
