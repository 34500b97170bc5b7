// Sealing key required with a real CRM; example rules never run against a real CRM. An engine with
// CRM_BASE_URL used to seal webhook secrets with the public local key whenever NODE_ENV was not
// production, and to run whatever RULES_DIR held, the repository's example rules included (a welcome
// template to real customers). And a webhook secret with a NULL key id was read as plain text: the
// migration 1766020000001 seals such rows, and the engine then refuses one instead of trusting it.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadConfig } from '../../src/runtime/config/load-config';
import { openSecret, secretKeyOf } from '../../src/runtime/config/secret-box';
import { startEngine } from '../../src/engine';
import { WebhookSecretsService } from '../../src/pipeline/intake/webhook-secrets.service';
import { SealPlainWebhookSecrets1766020000001 } from '../../migrations/1766020000001-SealPlainWebhookSecrets';
import { createTestDb, type TestDb } from '../support/test-db';

jest.setTimeout(60_000);

const KEY = randomBytes(32);
const KEY_TEXT = KEY.toString('hex');
const REPO_RULES = join(__dirname, '..', '..', 'rules');

const realCrm = (env: Record<string, string>) =>
  loadConfig({
    ...process.env,
    CRM_BASE_URL: 'http://127.0.0.1:9',
    CRM_API_KEY: 'sk_live_not_echoed',
    PORT: '0',
    LOG_LEVEL: 'error',
    WEBHOOK_SECRET_KEY: '',
    ...env,
  });

describe('an engine against a real CRM refuses to start', () => {
  it('sealing key required with a real CRM: names WEBHOOK_SECRET_KEY, starts nothing', async () => {
    const start = startEngine(realCrm({ RULES_DIR: __dirname }), { quiet: true });
    await expect(start).rejects.toThrow(/WEBHOOK_SECRET_KEY is required when CRM_BASE_URL is set/);
    await expect(start).rejects.not.toThrow(/sk_live_not_echoed/);
  });

  it("example rules never run against a real CRM: refuses the repository's rules/", async () => {
    await expect(
      startEngine(realCrm({ RULES_DIR: REPO_RULES, WEBHOOK_SECRET_KEY: KEY_TEXT }), { quiet: true }),
    ).rejects.toThrow(/RULES_DIR \(.*rules\) holds the repository's example rules/);
  });
});

describe('webhook secrets with a NULL key id', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(() => db.drop());

  const plantPlain = (id: string, secret: string) =>
    db.dataSource.query(
      `INSERT INTO webhook_subscriptions (id, crm_base_url, url, events, secret, active)
       VALUES ($1, 'http://127.0.0.1:9', 'http://engine.example/webhooks/crm', '{contact.updated}', $2, true)`,
      [id, secret],
    );
  const rowOf = async (id: string) =>
    (
      await db.dataSource.query(
        `SELECT secret, secret_key_id, active FROM webhook_subscriptions WHERE id = $1`,
        [id],
      )
    )[0];

  it('are sealed by the migration with the configured key', async () => {
    await plantPlain('before-migration', 'whsec_from_before');
    const previous = process.env.WEBHOOK_SECRET_KEY;
    process.env.WEBHOOK_SECRET_KEY = KEY_TEXT;
    const runner = db.dataSource.createQueryRunner();
    try {
      await new SealPlainWebhookSecrets1766020000001().up(runner);
    } finally {
      await runner.release();
      if (previous === undefined) delete process.env.WEBHOOK_SECRET_KEY;
      else process.env.WEBHOOK_SECRET_KEY = previous;
    }
    const row = await rowOf('before-migration');
    expect(row.secret_key_id).toBe(secretKeyOf(KEY).id);
    expect(row.secret).not.toContain('whsec_from_before');
    expect(
      openSecret(
        { ciphertext: row.secret, keyId: row.secret_key_id },
        [secretKeyOf(KEY)],
        'before-migration',
      ),
    ).toBe('whsec_from_before');
  });

  it('are refused by the read path afterwards, never read as plain text', async () => {
    await plantPlain('planted-plain', 'whsec_planted_plain');
    const config = realCrm({ WEBHOOK_SECRET_KEY: KEY_TEXT, DATABASE_URL: db.url });
    const service = new WebhookSecretsService(config, db.dataSource);
    expect(await service.secrets()).not.toContain('whsec_planted_plain');
    expect(await service.sealStoredSecrets()).toEqual({ sealed: 0, unreadable: 1 });
    expect(await rowOf('planted-plain')).toMatchObject({ secret_key_id: null, active: false });
  });
});
