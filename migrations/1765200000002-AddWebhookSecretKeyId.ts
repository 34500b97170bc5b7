import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook secrets are stored sealed (AES-256-GCM, WEBHOOK_SECRET_KEY) with the id of their key.
 * Rows from before hold plain text: their key id is NULL, which marks them for the engine to seal
 * at start (WebhookSecretsService.sealStoredSecrets); no key is needed here.
 */
export class AddWebhookSecretKeyId1765200000002 implements MigrationInterface {
  name = 'AddWebhookSecretKeyId1765200000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_subscriptions" ADD "secret_key_id" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Code from before cannot open a sealed secret: those subscriptions are retired, and it
    // subscribes again at its next start.
    await queryRunner.query(
      `UPDATE "webhook_subscriptions" SET active = false WHERE "secret_key_id" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_subscriptions" DROP COLUMN "secret_key_id"`);
  }
}
