// The git source of the rules (RULES_GIT_*), apart from load-config.ts. Called by loadConfig with
// its environment; problems are added to the same list. Secret values (a token inside the URL, the
// webhook secret) are never echoed.
import type { RulesGitConfig } from './app-config';

type Env = Record<string, string | undefined>;

const MIN_WEBHOOK_SECRET = 16;

/** undefined when RULES_GIT_URL is unset: the rules come from RULES_DIR. */
export function loadRulesGitConfig(env: Env, problems: string[]): RulesGitConfig | undefined {
  const str = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const url = str('RULES_GIT_URL');
  if (!url) return undefined;
  const interval = Number(str('RULES_GIT_INTERVAL_SECONDS') ?? 300);
  if (!Number.isInteger(interval) || interval < 5 || interval > 86_400)
    problems.push(`RULES_GIT_INTERVAL_SECONDS must be an integer between 5 and 86400`);
  const webhookSecret = str('RULES_GIT_WEBHOOK_SECRET');
  if (webhookSecret !== undefined && webhookSecret.length < MIN_WEBHOOK_SECRET)
    problems.push(`RULES_GIT_WEBHOOK_SECRET must have at least ${MIN_WEBHOOK_SECRET} characters`);
  const subdir = (str('RULES_GIT_SUBDIR') ?? '').replace(/^\/+|\/+$/g, '');
  if (subdir.split('/').some((seg) => seg === '..'))
    problems.push(`RULES_GIT_SUBDIR must stay inside the repository (no "..")`);
  return {
    url,
    ref: str('RULES_GIT_REF') ?? 'main',
    subdir,
    intervalMs: (Number.isInteger(interval) ? interval : 300) * 1000,
    ...(webhookSecret ? { webhookSecret } : {}),
    ...(str('RULES_GIT_SSH_KEY_FILE') ? { sshKeyFile: str('RULES_GIT_SSH_KEY_FILE') } : {}),
    ...(str('RULES_GIT_CACHE_DIR') ? { cacheDir: str('RULES_GIT_CACHE_DIR') } : {}),
    timeoutMs: 30_000,
  };
}

/** The URL without credentials, for logs and health (https://token@host/... → https://host/...). */
export function redactGitUrl(url: string): string {
  return url.replace(/^([a-z+]+:\/\/)[^@/]*@/i, '$1');
}
