import { localSecretKey } from './secret-box';
import { ConfigError, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('works with no variables at all (a fresh clone runs against the embedded sandbox)', () => {
    const config = loadConfig({});
    expect(config.crm.baseUrl).toBeUndefined();
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/crm_rules');
    expect(config.redis.url).toBe('redis://127.0.0.1:6379');
    expect(config.crm.budget).toEqual({ limit: 300, windowMs: 60000, bulkMinShare: 0.2 });
    expect(config.crm.signatureHeader).toBe('x-service-signature');
  });

  it('lists every bad variable in one error', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({
        PORT: 'abc',
        ROLE: 'boss',
        DATABASE_URL: 'mysql://x',
        CRM_BASE_URL: 'https://crm.example',
        CRM_RATE_LIMIT: '0',
      });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toHaveLength(5);
    expect(error!.message).toMatch(/PORT/);
    expect(error!.message).toMatch(/ROLE/);
    expect(error!.message).toMatch(/DATABASE_URL/);
    expect(error!.message).toMatch(/CRM_API_KEY is required/);
    expect(error!.message).toMatch(/CRM_RATE_LIMIT/);
  });

  it('never echoes a URL value, which may hold a password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db' })).toThrow(/^(?![\s\S]*hunter2)/);
  });

  it('takes the real CRM when CRM_BASE_URL and CRM_API_KEY are set', () => {
    const config = loadConfig({ CRM_BASE_URL: 'https://crm.example/', CRM_API_KEY: 'sk_live_x' });
    expect(config.crm.baseUrl).toBe('https://crm.example');
    expect(config.crm.apiKey).toBe('sk_live_x');
  });

  it.each([
    [{}, 30],
    [{ DATABASE_POOL_MAX: '12' }, 12],
  ])('sizes the Postgres pool of a process from %j', (env, max) => {
    expect(loadConfig(env).databasePoolMax).toBe(max);
  });

  it.each(['1', 'many'])('refuses DATABASE_POOL_MAX=%s', (value) => {
    expect(() => loadConfig({ DATABASE_POOL_MAX: value })).toThrow(/DATABASE_POOL_MAX/);
  });

  it('refuses an ADMIN_TOKEN shorter than 32 characters without echoing it', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'short-secret' })).toThrow(
      /ADMIN_TOKEN must be at least 32 characters \(got 12\)/,
    );
    expect(() => loadConfig({ ADMIN_TOKEN: 'short-secret' })).toThrow(/^(?![\s\S]*short-secret)/);
    const hex = 'f3a9c1d2e4b5a6978877665544332211ffeeddccbbaa0099';
    expect(loadConfig({ ADMIN_TOKEN: hex }).adminToken).toBe(hex);
  });

  it('refuses a guessable ADMIN_TOKEN at start without echoing it', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'a'.repeat(32) })).toThrow(
      /ADMIN_TOKEN is one character repeated/,
    );
    expect(() => loadConfig({ ADMIN_TOKEN: 'a'.repeat(32) })).toThrow(/^(?![\s\S]*aaaaaaaa)/);
  });

  it.each([
    [{}, { idleMs: 30 * 60_000, lifetimeMs: 12 * 3_600_000 }],
    [
      { CONSOLE_SESSION_IDLE_MINUTES: '5', CONSOLE_SESSION_MAX_HOURS: '1' },
      { idleMs: 300_000, lifetimeMs: 3_600_000 },
    ],
  ])('times console sessions out from %j', (env, expected) => {
    expect(loadConfig(env).consoleSession).toEqual(expected);
  });

  it.each([
    ['CRM_MAX_PAUSE_MS', '500'],
    ['CRM_BUDGET_MAX_WAIT_MS', 'soon'],
    ['CRM_BUDGET_COLD_START', 'maybe'],
    ['CRM_ORGANIZATION_ID', 'org with spaces'],
    ['RETENTION_DAYS', '0'],
    ['RETENTION_AUDIT_DAYS', '7'], // shorter than RETENTION_DAYS (30)
    ['HTTP_REQUEST_TIMEOUT_MS', '10'],
    ['HTTP_MAX_CONNECTIONS', '0'],
    ['INTAKE_DB_POOL_SIZE', '-1'],
    ['CONSOLE_SESSION_IDLE_MINUTES', '0'],
    ['CONSOLE_SESSION_MAX_HOURS', '1000'],
  ])('refuses a bad %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('bounds every wait by default: 429 pauses and budget waits at five minutes, cold start on', () => {
    const { crm, retentionDays, http } = loadConfig({});
    expect(crm).toMatchObject({ maxPauseMs: 300_000, budgetMaxWaitMs: 300_000, budgetColdStart: true });
    expect({ retentionDays, http }).toEqual({
      retentionDays: 30,
      http: { requestTimeoutMs: 10_000, maxConnections: 1_000 },
    });
  });

  describe('webhook secret keys', () => {
    const KEY = 'ab'.repeat(32);
    const OLD = Buffer.alloc(32, 7).toString('base64');

    it('seals with WEBHOOK_SECRET_KEY and still opens with WEBHOOK_SECRET_OLD_KEYS (and "local")', () => {
      const { webhookSecretKeys: k } = loadConfig({
        WEBHOOK_SECRET_KEY: KEY,
        WEBHOOK_SECRET_OLD_KEYS: `${OLD}, local`,
      });
      expect(k.current.key.toString('hex')).toBe(KEY);
      expect(k.old.map((o) => o.key)).toEqual([Buffer.alloc(32, 7), localSecretKey().key]);
      expect(k.local).toBe(false);
    });

    it('falls back to the public local key outside production, so the demo starts with no env', () => {
      const { webhookSecretKeys: k } = loadConfig({});
      expect(k).toEqual({ current: localSecretKey(), old: [], local: true });
    });

    it.each([
      [
        'a key that is not 32 bytes',
        { WEBHOOK_SECRET_KEY: 'not-a-key-0123456789' },
        /WEBHOOK_SECRET_KEY must be 32 bytes/,
      ],
      [
        'no key in production',
        { NODE_ENV: 'production' },
        /WEBHOOK_SECRET_KEY is required with NODE_ENV=production/,
      ],
      [
        'a bad old key',
        { WEBHOOK_SECRET_OLD_KEYS: `${OLD},not-a-key-0123456789` },
        /WEBHOOK_SECRET_OLD_KEYS: key 2/,
      ],
    ])('refuses %s without echoing it', (_case, env, message) => {
      expect(() => loadConfig(env)).toThrow(message);
      expect(() => loadConfig(env)).toThrow(/^(?![\s\S]*not-a-key-0123456789)/);
    });
  });
  describe('source secrets: CRM_WEBHOOK_SECRET strength', () => {
    const REAL = { CRM_BASE_URL: 'https://crm.example.com', CRM_API_KEY: 'sk_live_x' };

    it('refuses CRM_WEBHOOK_SECRET=x at start against a real CRM, with a clear message', () => {
      expect(() => loadConfig({ ...REAL, CRM_WEBHOOK_SECRET: 'x' })).toThrow(
        /CRM_WEBHOOK_SECRET must be at least 32 characters/,
      );
    });

    it.each([
      ['a strong secret against a real CRM', { ...REAL, CRM_WEBHOOK_SECRET: 'k'.repeat(32) }],
      ['a short secret in the demo (embedded sandbox)', { CRM_WEBHOOK_SECRET: 'x' }],
    ])('accepts %s', (_what, env) => {
      expect(() => loadConfig(env)).not.toThrow();
    });
  });
  describe('the engine clock offset', () => {
    const PROD = { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: 'ab'.repeat(32) };

    it.each([
      ['unset: the process clock', {}, 0],
      ['ahead', { ENGINE_CLOCK_OFFSET_MS: '3600000' }, 3_600_000],
      ['behind', { ENGINE_CLOCK_OFFSET_MS: '-86400000' }, -86_400_000],
      ['production, no offset', PROD, 0],
      [
        'production, opted in',
        { ...PROD, ENGINE_CLOCK_OFFSET_MS: '60000', ENGINE_CLOCK_OFFSET_IN_PRODUCTION: 'true' },
        60_000,
      ],
    ])('%s', (_case, env: Record<string, string>, offset) => {
      expect(loadConfig(env).engineClockOffsetMs).toBe(offset);
    });

    it.each([
      ['not an integer', { ENGINE_CLOCK_OFFSET_MS: '1.5' }, /ENGINE_CLOCK_OFFSET_MS must be an integer/],
      [
        'past a century',
        { ENGINE_CLOCK_OFFSET_MS: String(200 * 365 * 86_400_000) },
        /ENGINE_CLOCK_OFFSET_MS must be/,
      ],
      [
        'production without the opt-in',
        { ...PROD, ENGINE_CLOCK_OFFSET_MS: '60000' },
        /ENGINE_CLOCK_OFFSET_IN_PRODUCTION=true/,
      ],
    ])('refuses %s', (_case, env: Record<string, string>, message) => {
      expect(() => loadConfig(env)).toThrow(message);
    });
  });
});
