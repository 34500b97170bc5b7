// Webhook secrets at rest against real Postgres, Redis and the sandbox: the subscription's row
// holds no plain text, the sandbox's signed deliveries still verify, and after a key rotation
// (a second engine on the same database with a new WEBHOOK_SECRET_KEY, the old one in
// WEBHOOK_SECRET_OLD_KEYS) every row is sealed with the new key and deliveries signed with those
// secrets are still accepted; a row no configured key opens is deactivated and its secret refused,
// and so is a plain-text row (NULL key id) written after migration 1766020000001 sealed the old ones.
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../../src/runtime/config/load-config';
import { startEngine, type RunningEngine } from '../../../src/engine';
import { openSecret, parseSecretKey, sealSecret, secretKeyOf } from '../../../src/runtime/config/secret-box';
import { KEYS } from '../../support/demo-fixture';
import { ADMIN_TOKEN, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { contactEvent, deliver } from '../../support/webhooks';

const OLD_KEY = randomBytes(32).toString('hex');
const NEW_KEY = randomBytes(32).toString('base64');
const oldKey = secretKeyOf(parseSecretKey(OLD_KEY)!);
const newKey = secretKeyOf(parseSecretKey(NEW_KEY)!);
const LEGACY_SECRET = `whsec_legacy_${randomBytes(8).toString('hex')}`;
const PLANTED_SECRET = `whsec_planted_${randomBytes(8).toString('hex')}`;

interface Row {
  id: string;
  secret: string;
  secret_key_id: string | null;
  dump: string;
}

describe('webhook secrets at rest', () => {
  let h: Harness;
  let db: DataSource;
  let rotated: RunningEngine | undefined;
  let sandboxSecret: string;
  const rows = (): Promise<Row[]> =>
    db.query(
      `SELECT id, secret, secret_key_id, row_to_json(w)::text AS dump FROM webhook_subscriptions w ORDER BY id`,
    );

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'tag.yaml': ['rule: tag-new', 'on: contact.created', 'do:', '  - add-tag: vip', ''].join('\n'),
      },
      env: { WEBHOOK_SECRET_KEY: OLD_KEY },
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => {
    await rotated?.close();
    await h?.stop();
  });

  it('stores the subscription secret sealed with the key, never in plain text', async () => {
    const [row] = await eventually(async () => {
      const found = (await rows()).filter((r) => r.secret_key_id);
      return found.length ? found : undefined;
    });
    expect(row.secret_key_id).toBe(oldKey.id);
    sandboxSecret = openSecret({ ciphertext: row.secret, keyId: oldKey.id }, [oldKey], row.id);
    expect(sandboxSecret.length).toBeGreaterThan(8);
    expect(row.dump).not.toContain(sandboxSecret);
  });

  it('verifies the CRM’s signed deliveries with the sealed secret', async () => {
    const contact = await newContact(h, 'Sally Sealed');
    await eventually(async () => {
      const found = await db.query(
        `SELECT 1 FROM inbox_events WHERE contact_id = $1 AND type = 'contact.created'`,
        [contact.id],
      );
      return found.length ? true : undefined;
    });
  });

  it('after a key rotation, seals every row with the new key and still accepts their deliveries', async () => {
    // A plain-text row (no key id) written by hand after the migration that sealed such rows.
    await db.query(
      `INSERT INTO webhook_subscriptions (id, crm_base_url, url, events, secret, active)
       VALUES ('legacy-sub', $1, 'http://old.example/webhooks/crm', '{contact.updated}', $2, true)`,
      [h.config.crm.baseUrl, LEGACY_SECRET],
    );
    // A row sealed with a key nobody configured (lost, or planted by someone with database access).
    const plantedSeal = sealSecret(PLANTED_SECRET, secretKeyOf(randomBytes(32)), 'planted-sub');
    await db.query(
      `INSERT INTO webhook_subscriptions (id, crm_base_url, url, events, secret, secret_key_id, active)
       VALUES ('planted-sub', $1, 'http://old.example/webhooks/crm', '{contact.updated}', $2, $3, true)`,
      [h.config.crm.baseUrl, plantedSeal.ciphertext, plantedSeal.keyId],
    );
    const config = loadConfig({
      ...process.env,
      ROLE: 'api',
      PORT: '0',
      PUBLIC_URL: '',
      CRM_BASE_URL: h.sandboxUrl,
      CRM_API_KEY: KEYS.full,
      CRM_BUDGET_COLD_START: 'false',
      DATABASE_URL: h.config.databaseUrl,
      REDIS_URL: h.config.redis.url,
      REDIS_PREFIX: h.config.redis.prefix,
      RULES_DIR: h.rulesDir,
      ADMIN_TOKEN,
      LOG_LEVEL: 'error',
      WEBHOOK_SECRET_KEY: NEW_KEY,
      WEBHOOK_SECRET_OLD_KEYS: OLD_KEY,
    });
    rotated = await startEngine(config, { quiet: true, subscribe: false });

    const all = await rows();
    // The planted row opens with no configured key: deactivated, not trusted, left as it was.
    const [planted] = await db.query(
      `SELECT active, secret_key_id FROM webhook_subscriptions WHERE id = 'planted-sub'`,
    );
    expect(planted).toEqual({ active: false, secret_key_id: expect.not.stringMatching(newKey.id) });
    // The plain-text row is refused, not trusted: deactivated, left as it was.
    const [plain] = await db.query(
      `SELECT active, secret_key_id FROM webhook_subscriptions WHERE id = 'legacy-sub'`,
    );
    expect(plain).toEqual({ active: false, secret_key_id: null });
    const after = all.filter((r) => r.id !== 'planted-sub' && r.id !== 'legacy-sub');
    expect(after.map((r) => r.secret_key_id)).toEqual(after.map(() => newKey.id));
    for (const row of after) {
      expect(row.dump).not.toContain(sandboxSecret);
      expect(row.dump).not.toContain(LEGACY_SECRET);
      expect(() => openSecret({ ciphertext: row.secret, keyId: oldKey.id }, [oldKey], row.id)).toThrow();
    }

    const body = () => JSON.stringify(contactEvent('contact.updated', { id: null, name: 'x' }));
    expect((await deliver(rotated.url, body(), { secret: sandboxSecret })).status).toBe(200);
    expect((await deliver(rotated.url, body(), { secret: LEGACY_SECRET })).status).toBe(401);
    expect((await deliver(rotated.url, body(), { secret: 'whsec_forged' })).status).toBe(401);
    expect((await deliver(rotated.url, body(), { secret: PLANTED_SECRET })).status).toBe(401);
  });
});
