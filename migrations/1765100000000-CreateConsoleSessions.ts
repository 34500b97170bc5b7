import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Console sessions held server-side: logout deletes the row (a copied cookie stops working), a
 * changed ADMIN_TOKEN no longer matches token_fingerprint, and the idle and absolute limits are
 * checked against last_seen_at and created_at. The cookie's id is stored only as a SHA-256 hash.
 */
export class CreateConsoleSessions1765100000000 implements MigrationInterface {
  name = 'CreateConsoleSessions1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "console_sessions" (
      "id_hash" text NOT NULL,
      "token_fingerprint" text NOT NULL,
      "client_address" text,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_console_sessions" PRIMARY KEY ("id_hash"))`);
    await q.query(`CREATE INDEX "IDX_console_sessions_last_seen_at" ON "console_sessions" ("last_seen_at")`);
    await q.query(`CREATE INDEX "IDX_console_sessions_created_at" ON "console_sessions" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "console_sessions"`);
  }
}
