// The http-request action's part of the configuration (HTTP_ACTION_*, HTTP_SECRET_*), apart
// from load-config.ts so that file stays about the engine itself. Called by loadConfig with its
// environment; problems are added to the same list. Secret values are never echoed.
import { existsSync, readFileSync } from 'node:fs';
import { parseAddress, parseCidr } from '../../language/net/ip-address';
import { parseHostPattern } from '../../language/net/egress-policy';
import type { HttpActionConfig } from './app-config';

type Env = Record<string, string | undefined>;

export const SECRET_ENV_PREFIX = 'HTTP_SECRET_';
const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * Why an allow-list entry is refused, or undefined. A wildcard stands for the subdomains of a
 * registrable name (`*.example.com`): two labels at least, the last one not all digits, never an
 * address (`*.0.0.1`, `*.com` are refused). An entry may pin its port (`erp.example.com:8443`).
 */
export function hostEntryProblem(entry: string): string | undefined {
  const { host, port } = parseHostPattern(entry);
  if (port !== undefined && !(port >= 1 && port <= 65535)) return 'has a port outside 1-65535';
  if (parseAddress(host)) return host.startsWith('*') ? 'is a wildcard over an address' : undefined;
  if (host.startsWith('*.')) {
    const name = host.slice(2);
    const labels = name.split('.');
    if (!HOST_NAME.test(name) || parseAddress(name) || labels.length < 2 || /^\d+$/.test(labels.at(-1)!))
      return 'is a wildcard over no registrable name (use *.example.com)';
    return undefined;
  }
  return HOST_NAME.test(host) ? undefined : 'is not a host name';
}
const MIN_SIGNING_SECRET = 32;

export function loadHttpActionConfig(env: Env, problems: string[]): HttpActionConfig {
  const str = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const list = (name: string) =>
    (str(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
    return fallback;
  };

  const allowedHosts = list('HTTP_ACTION_ALLOWED_HOSTS').map((h) => h.toLowerCase());
  for (const host of allowedHosts) {
    const why = hostEntryProblem(host);
    if (why)
      problems.push(
        `HTTP_ACTION_ALLOWED_HOSTS: "${host.slice(0, 80)}" ${why} (e.g. erp.example.com, erp.example.com:8443 or *.example.com)`,
      );
  }
  const allowPrivate = list('HTTP_ACTION_ALLOW_PRIVATE');
  for (const cidr of allowPrivate)
    if (!parseCidr(cidr))
      problems.push(`HTTP_ACTION_ALLOW_PRIVATE: "${cidr}" is not an address range (e.g. 127.0.0.1/32)`);

  const signingSecret = str('HTTP_ACTION_SIGNING_SECRET');
  if (signingSecret !== undefined && signingSecret.length < MIN_SIGNING_SECRET)
    problems.push(`HTTP_ACTION_SIGNING_SECRET must be at least ${MIN_SIGNING_SECRET} characters`);
  if (signingSecret === undefined && allowedHosts.length > 0)
    problems.push('HTTP_ACTION_SIGNING_SECRET is required when HTTP_ACTION_ALLOWED_HOSTS is set');

  const secrets = loadSecrets(env, str('HTTP_ACTION_SECRETS_FILE'), problems);
  return {
    allowedHosts,
    allowPrivate,
    signingSecret,
    secretHosts: secretHosts(list('HTTP_ACTION_SECRET_HOSTS'), secrets, problems),
    hostSigningSecrets: hostSigningSecrets(list('HTTP_ACTION_HOST_SIGNING_SECRETS'), secrets, problems),
    signatureV1: str('HTTP_ACTION_SIGNATURE_V1') === 'true',
    secrets,
    maxResponseBytes: int('HTTP_ACTION_MAX_RESPONSE_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    maxRedirects: int('HTTP_ACTION_MAX_REDIRECTS', 3, 0, 10),
    // At most the inline attempt and the job's 4: more could never be reached.
    maxAttempts: int('HTTP_ACTION_MAX_ATTEMPTS', 4, 1, 5),
    hostConcurrency: int('HTTP_ACTION_HOST_CONCURRENCY', 4, 1, 1000),
    hostRateLimit: int('HTTP_ACTION_HOST_RATE_LIMIT', 60, 1, 100_000),
    hostRateWindowMs: int('HTTP_ACTION_HOST_RATE_WINDOW_MS', 60_000, 100, 3_600_000),
  };
}

/** `NAME=host` pairs (a name may come back for each host): where a secret may be sent. */
function secretHosts(pairs: string[], secrets: Record<string, string>, problems: string[]) {
  const out: Record<string, string[]> = {};
  for (const pair of pairs) {
    const [name, host, extra] = pair.split('=').map((s) => s.trim());
    const why = host ? hostEntryProblem(host.toLowerCase()) : 'is missing';
    if (!name || !SECRET_NAME.test(name) || extra !== undefined || why)
      problems.push(
        `HTTP_ACTION_SECRET_HOSTS: "${pair.slice(0, 80)}" must be SECRET_NAME=host (the host ${why ?? 'is fine'})`,
      );
    else if (!Object.hasOwn(secrets, name))
      problems.push(`HTTP_ACTION_SECRET_HOSTS: secret ${name} is not configured`);
    else (out[name] ??= []).push(host.toLowerCase());
  }
  return out;
}

/** `host=SECRET_NAME` pairs: the host's own signing key, a configured secret of at least 32 characters. */
function hostSigningSecrets(
  pairs: string[],
  secrets: Record<string, string>,
  problems: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const [host, name, extra] = pair.split('=').map((s) => s.trim());
    if (!host || !name || extra !== undefined || !SECRET_NAME.test(name))
      problems.push(`HTTP_ACTION_HOST_SIGNING_SECRETS: "${pair.slice(0, 80)}" must be host=SECRET_NAME`);
    else if ((secrets[name] ?? '').length < MIN_SIGNING_SECRET)
      problems.push(
        `HTTP_ACTION_HOST_SIGNING_SECRETS: secret ${name} must be configured with at least ${MIN_SIGNING_SECRET} characters`,
      );
    else out[host.toLowerCase()] = secrets[name];
  }
  return out;
}

/** HTTP_SECRET_<NAME> variables, then the file (a JSON object of names to strings) on top. */
function loadSecrets(env: Env, file: string | undefined, problems: string[]): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (key.startsWith(SECRET_ENV_PREFIX) && value) secrets[key.slice(SECRET_ENV_PREFIX.length)] = value;
  if (file === undefined) return secrets;
  if (!existsSync(file)) {
    problems.push('HTTP_ACTION_SECRETS_FILE names a file that does not exist');
    return secrets;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Never echo the parser's message: it quotes the file's text.
    problems.push('HTTP_ACTION_SECRETS_FILE must hold a JSON object of secret names to strings');
    return secrets;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push('HTTP_ACTION_SECRETS_FILE must hold a JSON object of secret names to strings');
    return secrets;
  }
  for (const [name, value] of Object.entries(parsed)) {
    if (!SECRET_NAME.test(name) || typeof value !== 'string')
      problems.push(
        `HTTP_ACTION_SECRETS_FILE: "${name.slice(0, 64)}" must be an UPPER_CASE name with a string value`,
      );
    else secrets[name] = value;
  }
  return secrets;
}
