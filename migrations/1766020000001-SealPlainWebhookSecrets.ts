import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sealingKeyOfEnv } from '../src/runtime/config/load-config';
import { sealSecret } from '../src/runtime/config/secret-box';

/**
 * Ends the plain-text path of webhook secrets: every row whose `secret_key_id` is NULL (written
 * before encryption, 1765200000002) is sealed here with the key the environment names at migrate
 * time, WEBHOOK_SECRET_KEY (the public local key when unset, as the engine itself would use
 * outside a real CRM). `npm start` and `npm run migration:run` read the same environment as the
 * engine; run the migration with the engine's key, or list the migration's key in
 * WEBHOOK_SECRET_OLD_KEYS (`local` for the local key) so the engine opens and re-seals the rows.
 * From here on the engine refuses a NULL-key row instead of reading it as plain text
 * (WebhookSecretsService).
 */
export class SealPlainWebhookSecrets1766020000001 implements MigrationInterface {
  name = 'SealPlainWebhookSecrets1766020000001';

  async up(q: QueryRunner): Promise<void> {
    const rows: { id: string; secret: string }[] = await q.query(
      `SELECT id, secret FROM "webhook_subscriptions" WHERE "secret_key_id" IS NULL`,
    );
    if (rows.length === 0) return;
    const key = sealingKeyOfEnv();
    for (const row of rows) {
      const sealed = sealSecret(row.secret, key, row.id);
      await q.query(
        `UPDATE "webhook_subscriptions" SET secret = $2, secret_key_id = $3 WHERE id = $1 AND "secret_key_id" IS NULL`,
        [row.id, sealed.ciphertext, sealed.keyId],
      );
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: the code from before opens sealed rows (it only also read plain ones).
  }
}
