// The one place that reads process.env. Every variable is checked; all problems are
// reported together so a misconfigured deployment is fixed in one go.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { localSecretKey, parseSecretKey, secretKeyOf, type SecretKey } from './secret-box';
import { adminTokenWeakness } from './admin-token-strength';
import type { AppConfig, Role } from './app-config';
import { loadHttpActionConfig } from './load-http-action-config';
import { loadRulesGitConfig } from './load-rules-git-config';
import { loadAccessConfig } from './load-access-config';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** `.data/runtime.env` is written by scripts/setup.js when it had to start local servers. */
export function readRuntimeEnv(root = process.cwd()): Env {
  const file = join(root, '.data', 'runtime.env');
  if (!existsSync(file)) return {};
  const env: Env = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

const ROLES: Role[] = ['all', 'api', 'worker', 'scheduler'];
/** The engine clock moves at most a century either way (ENGINE_CLOCK_OFFSET_MS). */
const MAX_CLOCK_OFFSET_MS = 100 * 366 * 86_400_000;

export function loadConfig(env: Env = { ...readRuntimeEnv(), ...process.env }): AppConfig {
  const problems: string[] = [];
  const str = (name: string, fallback?: string): string | undefined => {
    const v = env[name];
    return v === undefined || v === '' ? fallback : v;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const num = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) {
      problems.push(`${name} must be a number between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const url = (name: string, fallback: string | undefined, protocols: string[]): string | undefined => {
    const raw = str(name, fallback);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      // Never echo the value: URLs may carry passwords.
      problems.push(`${name} must be a ${protocols.join(' or ')} URL`);
      return fallback;
    }
  };

  const role = str('ROLE', 'all') as Role;
  if (!ROLES.includes(role)) problems.push(`ROLE must be one of ${ROLES.join(', ')} (got "${role}")`);

  const crmBaseUrl = url('CRM_BASE_URL', undefined, ['http:', 'https:']);
  const apiKey = str('CRM_API_KEY');
  if (crmBaseUrl && !apiKey) problems.push('CRM_API_KEY is required when CRM_BASE_URL is set');
  const organizationId = str('CRM_ORGANIZATION_ID');
  if (organizationId !== undefined && !/^[A-Za-z0-9._-]{1,100}$/.test(organizationId))
    problems.push('CRM_ORGANIZATION_ID must be 1-100 letters, digits, ".", "_" or "-"');
  const adminToken = str('ADMIN_TOKEN');
  // Never echo the value; a short or patterned token can be guessed through the admin API.
  const weakness = adminToken === undefined ? undefined : adminTokenWeakness(adminToken);
  if (weakness) problems.push(`ADMIN_TOKEN ${weakness}`);

  const nodeEnv = str('NODE_ENV', 'development')!;
  // Keys are never echoed. Outside production a missing key falls back to the public local key
  // (the demo must start with no env at all); `local` in the old keys opens what it sealed.
  const KEY_HINT = '32 bytes as 64 hex digits or base64 (e.g. openssl rand -base64 32)';
  const secretKeyText = str('WEBHOOK_SECRET_KEY');
  let currentKey: SecretKey = localSecretKey();
  if (secretKeyText !== undefined) {
    const key = parseSecretKey(secretKeyText);
    if (key) currentKey = secretKeyOf(key);
    else problems.push(`WEBHOOK_SECRET_KEY must be ${KEY_HINT}`);
  } else if (nodeEnv === 'production')
    problems.push(`WEBHOOK_SECRET_KEY is required with NODE_ENV=production (${KEY_HINT})`);
  const oldKeys: SecretKey[] = [];
  (str('WEBHOOK_SECRET_OLD_KEYS') ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .forEach((text, i) => {
      const key = text === 'local' ? localSecretKey().key : parseSecretKey(text);
      if (key) oldKeys.push(secretKeyOf(key));
      else problems.push(`WEBHOOK_SECRET_OLD_KEYS: key ${i + 1} must be ${KEY_HINT}, or "local"`);
    });

  const config: AppConfig = {
    nodeEnv,
    role,
    port: int('PORT', 3000, 0, 65535),
    host: str('HOST', '127.0.0.1')!,
    publicUrl: url('PUBLIC_URL', undefined, ['http:', 'https:']),
    alertWebhookUrl: url('ALERT_WEBHOOK_URL', undefined, ['http:', 'https:']),
    databaseUrl: url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/crm_rules', [
      'postgres:',
      'postgresql:',
    ])!,
    // Postgres connections per process: processes × this must stay under max_connections.
    databasePoolMax: int('DATABASE_POOL_MAX', 30, 2, 1000),
    redis: {
      url: url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])!,
      prefix: str('REDIS_PREFIX', 'crmr')!,
    },
    crm: {
      baseUrl: crmBaseUrl,
      apiKey: apiKey ?? 'sk_demo_full',
      organizationId,
      webhookSecret: str('CRM_WEBHOOK_SECRET'),
      signatureHeader: str('CRM_SIGNATURE_HEADER', 'X-Service-Signature')!.toLowerCase(),
      timeoutMs: int('CRM_TIMEOUT_MS', 10000, 100, 120000),
      maxRetries: int('CRM_MAX_RETRIES', 4, 0, 20),
      maxPauseMs: int('CRM_MAX_PAUSE_MS', 300_000, 1_000, 3_600_000),
      budgetMaxWaitMs: int('CRM_BUDGET_MAX_WAIT_MS', 300_000, 1_000, 3_600_000),
      budgetColdStart: bool('CRM_BUDGET_COLD_START', true),
      openCountStalenessMs: int('POOL_OPEN_COUNT_STALENESS_MS', 60_000, 0, 3_600_000),
      budget: {
        limit: int('CRM_RATE_LIMIT', 300, 1, 100000),
        windowMs: int('CRM_RATE_WINDOW_MS', 60000, 100, 3600000),
        bulkMinShare: num('CRM_BULK_MIN_SHARE', 0.2, 0, 1),
      },
    },
    sandbox: {
      port: int('SANDBOX_PORT', 4010, 0, 65535),
      rateLimit: int('SANDBOX_RATE_LIMIT', 300, 1, 100000),
      rateWindowMs: int('SANDBOX_RATE_WINDOW_MS', 60000, 100, 3600000),
    },
    rulesDir: str('RULES_DIR', 'rules')!,
    rulesWatch: bool('RULES_WATCH', true),
    allowExampleRules: bool('ALLOW_EXAMPLE_RULES', false),
    rulesGit: loadRulesGitConfig(env, problems),
    adminToken,
    access: loadAccessConfig(env, problems, crmBaseUrl === undefined),
    consoleSession: {
      idleMs: int('CONSOLE_SESSION_IDLE_MINUTES', 30, 1, 24 * 60) * 60_000,
      lifetimeMs: int('CONSOLE_SESSION_MAX_HOURS', 12, 1, 7 * 24) * 3_600_000,
    },
    webhookBodyLimitBytes: int('WEBHOOK_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    eventMaxAttempts: int('EVENT_MAX_ATTEMPTS', 5, 1, 100),
    http: {
      requestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 10_000, 1_000, 300_000),
      maxConnections: int('HTTP_MAX_CONNECTIONS', 1_000, 1, 100_000),
    },
    intakeDbPoolSize: int('INTAKE_DB_POOL_SIZE', 8, 1, 100),
    retentionDays: int('RETENTION_DAYS', 30, 1, 3650),
    subscriptionCheckMs: int('WEBHOOK_SUBSCRIPTION_CHECK_MS', 60_000, 1_000, 3_600_000),
    retentionAuditDays: int('RETENTION_AUDIT_DAYS', 365, 1, 36500),
    webhookSecretKeys: { current: currentKey, old: oldKeys, local: secretKeyText === undefined },
    logLevel: str('LOG_LEVEL', 'info')!,
    engineClockOffsetMs: int('ENGINE_CLOCK_OFFSET_MS', 0, -MAX_CLOCK_OFFSET_MS, MAX_CLOCK_OFFSET_MS),
    httpAction: loadHttpActionConfig(env, problems),
  };
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  // A moved clock sends messages by a calendar that is not the customers': a test and staging
  // tool, never on by accident where messages reach real people.
  if (
    config.engineClockOffsetMs !== 0 &&
    nodeEnv === 'production' &&
    !bool('ENGINE_CLOCK_OFFSET_IN_PRODUCTION', false)
  )
    problems.push(
      'ENGINE_CLOCK_OFFSET_MS moves the clock rules decide by; with NODE_ENV=production it also needs ENGINE_CLOCK_OFFSET_IN_PRODUCTION=true',
    );
  // A guessable signing secret lets anyone forge the CRM's events; the embedded demo sandbox is exempt.
  if (config.crm.baseUrl && config.crm.webhookSecret !== undefined && config.crm.webhookSecret.length < 32)
    problems.push(
      'CRM_WEBHOOK_SECRET must be at least 32 characters against a real CRM (e.g. openssl rand -hex 24); unset it to let the engine subscribe with a secret the CRM generates',
    );
  if (config.retentionAuditDays < config.retentionDays)
    problems.push(`RETENTION_AUDIT_DAYS must be at least RETENTION_DAYS (${config.retentionDays})`);
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/**
 * The sealing key WEBHOOK_SECRET_KEY names, or the public local key when it is unset: what the
 * migration sealing plain-text webhook secrets (1766020000001) uses, as the engine would at start.
 * Throws ConfigError on a malformed key, never echoing it.
 */
export function sealingKeyOfEnv(env: Env = { ...readRuntimeEnv(), ...process.env }): SecretKey {
  const text = env.WEBHOOK_SECRET_KEY;
  if (text === undefined || text === '') return localSecretKey();
  const key = parseSecretKey(text);
  if (!key) throw new ConfigError(['WEBHOOK_SECRET_KEY must be 32 bytes as 64 hex digits or base64']);
  return secretKeyOf(key);
}
