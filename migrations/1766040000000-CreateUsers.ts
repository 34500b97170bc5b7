import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People who use the console and the admin API (src/operator/access/user.entity.ts): local accounts (an
 * scrypt hash) and OpenID Connect users (issuer + subject), each with one role and at most one API
 * token (its SHA-256). Console sessions now name their user (NULL: a login with ADMIN_TOKEN).
 */
export class CreateUsers1766040000000 implements MigrationInterface {
  name = 'CreateUsers1766040000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "users" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "email" text NOT NULL,
      "display_name" text NOT NULL,
      "role" text NOT NULL,
      "password_hash" text,
      "oidc_subject" text,
      "api_token_hash" text,
      "disabled_at" TIMESTAMP WITH TIME ZONE,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "last_login_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_users" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_users_role" CHECK ("role" IN ('viewer', 'operator', 'admin')))`);
    await q.query(`CREATE UNIQUE INDEX "UQ_users_email" ON "users" ("email")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_users_oidc_subject" ON "users" ("oidc_subject")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_users_api_token_hash" ON "users" ("api_token_hash")`);
    await q.query(`ALTER TABLE "console_sessions" ADD "user_id" uuid`);
    await q.query(
      `ALTER TABLE "console_sessions" ADD CONSTRAINT "FK_console_sessions_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "console_sessions" DROP CONSTRAINT "FK_console_sessions_user"`);
    await q.query(`ALTER TABLE "console_sessions" DROP COLUMN "user_id"`);
    await q.query(`DROP TABLE "users"`);
  }
}
