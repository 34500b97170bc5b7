// The typed configuration every part of the engine receives. Built once from the
// environment by load-config.ts; nothing else reads process.env.

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
    webhookSecret?: string;
    signatureHeader: string;
    timeoutMs: number;
    maxRetries: number;
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
  adminToken?: string;
  /** Slack-compatible webhook for operator alerts (console). */
  alertWebhookUrl?: string;
  webhookBodyLimitBytes: number;
  logLevel: string;
}
