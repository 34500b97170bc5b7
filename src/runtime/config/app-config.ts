// The typed configuration every part of the engine receives. Built once from the
// environment by load-config.ts; nothing else reads process.env.
import type { OidcRoleMapping } from '../../operator/roles/oidc-roles';
import type { SecretKey } from './secret-box';

export const APP_CONFIG = Symbol('APP_CONFIG');

export type Role = 'all' | 'api' | 'worker' | 'scheduler';

export interface AppConfig {
  nodeEnv: string;
  role: Role;
  port: number;
  host: string;
  /** Public address of this engine, used to subscribe to CRM webhooks (PUBLIC_URL). */
  publicUrl?: string;
  databaseUrl: string;
  /** Most Postgres connections this process opens (DATABASE_POOL_MAX). */
  databasePoolMax: number;
  redis: {
    url: string;
    /** Prefix of every BullMQ queue and budget key, so several engines can share a Redis. */
    prefix: string;
  };
  crm: {
    /** undefined: run the embedded sandbox and talk to it over HTTP. */
    baseUrl?: string;
    apiKey: string;
    /** Names the organization whose budget every key of it shares (CRM_ORGANIZATION_ID). */
    organizationId?: string;
    webhookSecret?: string;
    signatureHeader: string;
    timeoutMs: number;
    maxRetries: number;
    /** Longest 429 pause honoured (a longer Retry-After is capped, logged and counted). */
    maxPauseMs: number;
    /** Longest a call may wait for budget before it fails retryably (its job retries later). */
    budgetMaxWaitMs: number;
    /** Close the budget for one window when its Redis state is found missing. */
    budgetColdStart: boolean;
    /** How old a member's open-conversation count may be before an assignment pool counts again. */
    openCountStalenessMs: number;
    budget: {
      limit: number;
      windowMs: number;
      /** Share of the budget bulk work keeps while interactive work is waiting (0..1). */
      bulkMinShare: number;
    };
  };
  sandbox: {
    port: number;
    rateLimit: number;
    rateWindowMs: number;
  };
  rulesDir: string;
  rulesWatch: boolean;
  /** ALLOW_EXAMPLE_RULES: the bundled example rules may run against a real CRM (start-checks.ts). */
  allowExampleRules: boolean;
  /** Set when RULES_GIT_URL is: every process runs the version activated in Postgres (issue 31). */
  rulesGit?: RulesGitConfig;
  adminToken?: string;
  access: AccessConfig;
  /** Console sessions end after this long without a request, and this long after login at most. */
  consoleSession: { idleMs: number; lifetimeMs: number };
  /** Slack-compatible webhook for operator alerts (console). */
  alertWebhookUrl?: string;
  webhookBodyLimitBytes: number;
  /** Attempts at processing a stored event before it ends `failed` (listed and replayable by the admin API). */
  eventMaxAttempts: number;
  /** Bounds of the HTTP listener (intake and admin): time to receive a request, open connections. */
  http: { requestTimeoutMs: number; maxConnections: number };
  /** Postgres connections of the intake's own pool, apart from the workers'. */
  intakeDbPoolSize: number;
  /** Processed inbox payloads, runs and contact snapshots older than this are pruned. */
  retentionDays: number;
  /** How often the webhook subscription is checked and repaired (WEBHOOK_SUBSCRIPTION_CHECK_MS). */
  subscriptionCheckMs: number;
  /**
   * Keys of the webhook secrets at rest: `current` seals (WEBHOOK_SECRET_KEY, or the public local
   * key outside production: `local`), `old` still open (WEBHOOK_SECRET_OLD_KEYS, during a rotation).
   */
  webhookSecretKeys: { current: SecretKey; old: SecretKey[]; local: boolean };
  /** Audit rows (rule controls) older than this are pruned: a longer horizon than the ledger's. */
  retentionAuditDays: number;
  logLevel: string;
  /**
   * How far the engine clock (ENGINE_CLOCK, src/runtime/config/engine-clock.ts) is ahead of the process
   * clock (ENGINE_CLOCK_OFFSET_MS; negative: behind). 0 unless set; refused with NODE_ENV=production
   * unless ENGINE_CLOCK_OFFSET_IN_PRODUCTION=true.
   */
  engineClockOffsetMs: number;
  /** The http-request action and its egress limits (docs/RELIABILITY.md, SSRF surface). */
  httpAction: HttpActionConfig;
}

export interface HttpActionConfig {
  /** Hosts an http-request may call (`erp.example.com`, `*.example.com`); empty: every request is refused. */
  allowedHosts: string[];
  /** Non-public ranges allowed anyway (CIDRs, e.g. 127.0.0.1/32 for tests); empty by default. */
  allowPrivate: string[];
  /** Key of the engine's own signature header; required once a host is allowed. */
  signingSecret?: string;
  /** A host's own signing key (HTTP_ACTION_HOST_SIGNING_SECRETS: host=SECRET_NAME), by host. */
  hostSigningSecrets: Record<string, string>;
  /** Adds the legacy v1 signature (body only) beside v2 while receivers migrate. */
  signatureV1: boolean;
  /** Values of `${secret.NAME}` in header values: HTTP_SECRET_<NAME> variables and the secrets file. */
  secrets: Record<string, string>;
  /**
   * The hosts each secret may be sent to (HTTP_ACTION_SECRET_HOSTS: NAME=host pairs, allow-list
   * patterns). A secret with none goes nowhere.
   */
  secretHosts: Record<string, string[]>;
  maxResponseBytes: number;
  maxRedirects: number;
  /**
   * Sends of one http-request at most, counted on its ledger row (inline attempt, job retries,
   * a restart's re-send alike): the one bound. HTTP_ACTION_MAX_ATTEMPTS, 1-5, default 4.
   */
  maxAttempts: number;
  /** Requests in flight per host, across processes. */
  hostConcurrency: number;
  /** Requests started per host per window, across processes. */
  hostRateLimit: number;
  hostRateWindowMs: number;
}

/** The git branch the engine follows (docs/DEPLOY.md). */
export interface RulesGitConfig {
  /** https (a token in the URL), ssh (with RULES_GIT_SSH_KEY_FILE) or a local path. */
  url: string;
  /** Branch or tag. */
  ref: string;
  /** The rules' folder inside the repository ('' for its root). */
  subdir: string;
  /** The fallback fetch when no push webhook arrives. */
  intervalMs: number;
  /** Checks POST /hooks/git (GitHub X-Hub-Signature-256, GitLab X-Gitlab-Token); unset: the hook is off. */
  webhookSecret?: string;
  sshKeyFile?: string;
  /** Where the fetching process keeps its clone (default: a folder under the OS temp dir). */
  cacheDir?: string;
  timeoutMs: number;
}

export interface AccessConfig {
  /** Express's `trust proxy` (TRUST_PROXY): false (none), a hop count, or addresses/ranges. */
  trustProxy: false | number | string[];
  /** The session cookie Secure and `__Host-` prefixed (CONSOLE_COOKIE_SECURE; on outside the local demo). */
  cookieSecure: boolean;
  /** /docs and /docs-json served (API_DOCS; off with NODE_ENV=production), behind a viewer's credential. */
  apiDocs: boolean;
  oidc?: OidcConfig;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  /** OIDC_REDIRECT_URI; unset: <the request's origin>/console/login/oidc/callback (honours TRUST_PROXY). */
  redirectUri?: string;
  /** A plain-http issuer, for the test's own provider only (never with NODE_ENV=production). */
  allowHttpIssuer: boolean;
  roles: OidcRoleMapping;
}
