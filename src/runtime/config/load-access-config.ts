// Who may come in and how (ACCESS part of the configuration): trusted proxies, the session
// cookie, the API docs, OpenID Connect. Called by loadConfig with its environment; problems are
// added to the same list. OIDC_CLIENT_SECRET is never echoed.
import { parseRoleMap } from '../../operator/roles/oidc-roles';
import type { AccessConfig } from './app-config';

type Env = Record<string, string | undefined>;

export function loadAccessConfig(env: Env, problems: string[], demo: boolean): AccessConfig {
  const str = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const onOff = (name: string, fallback: boolean): boolean => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    if (['true', 'on', '1', 'yes'].includes(raw)) return true;
    if (['false', 'off', '0', 'no'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const production = (str('NODE_ENV') ?? 'development') === 'production';
  // Express's `trust proxy`: unset trusts none (req.ip is the socket's peer); a hop count, or a
  // list of addresses/ranges/names (loopback, uniquelocal, 10.0.0.0/8, ...).
  const trustRaw = str('TRUST_PROXY');
  let trustProxy: AccessConfig['trustProxy'] = false;
  if (trustRaw !== undefined) {
    if (/^\d+$/.test(trustRaw)) trustProxy = Number(trustRaw);
    else if (trustRaw === 'true')
      problems.push(
        'TRUST_PROXY=true would trust any client to name its own address: give a hop count or ranges',
      );
    else
      trustProxy = trustRaw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
  }
  const access: AccessConfig = {
    trustProxy,
    // The local demo (no CRM_BASE_URL, not production) is served over plain http on localhost;
    // everywhere else the cookie is Secure and __Host- prefixed, whatever PUBLIC_URL says.
    cookieSecure: onOff('CONSOLE_COOKIE_SECURE', production || !demo),
    apiDocs: onOff('API_DOCS', !production),
  };
  const issuer = str('OIDC_ISSUER');
  if (issuer === undefined) return access;
  const clientId = str('OIDC_CLIENT_ID');
  if (!clientId) problems.push('OIDC_CLIENT_ID is required with OIDC_ISSUER');
  try {
    const url = new URL(issuer);
    if (url.protocol !== 'https:' && production)
      problems.push('OIDC_ISSUER must be https with NODE_ENV=production');
  } catch {
    problems.push("OIDC_ISSUER must be a URL (the provider's issuer, e.g. https://accounts.google.com)");
  }
  let values = {};
  let emailDomains = {};
  try {
    values = parseRoleMap(str('OIDC_ROLE_MAP'), 'OIDC_ROLE_MAP');
    emailDomains = parseRoleMap(str('OIDC_EMAIL_DOMAIN_ROLES')?.toLowerCase(), 'OIDC_EMAIL_DOMAIN_ROLES');
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (!Object.keys(values).length && !Object.keys(emailDomains).length)
    problems.push('OIDC_ISSUER needs OIDC_ROLE_MAP or OIDC_EMAIL_DOMAIN_ROLES: nobody would get a role');
  access.oidc = {
    issuer,
    clientId: clientId ?? '',
    clientSecret: str('OIDC_CLIENT_SECRET'),
    scopes: str('OIDC_SCOPES') ?? 'openid email profile',
    redirectUri: str('OIDC_REDIRECT_URI'),
    allowHttpIssuer: !production && onOff('OIDC_ALLOW_HTTP_ISSUER', false),
    roles: { claim: str('OIDC_ROLE_CLAIM') ?? 'groups', values, emailDomains },
  };
  return access;
}
