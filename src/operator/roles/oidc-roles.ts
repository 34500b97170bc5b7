// Pure. The role an OpenID Connect sign-in gets, from its ID token's claims:
// - OIDC_ROLE_CLAIM (default `groups`): a claim holding a string or a list of strings (groups,
//   roles); OIDC_ROLE_MAP maps its values to roles (`crm-admins=admin,crm-ops=operator`);
// - OIDC_EMAIL_DOMAIN_ROLES maps a verified email's domain to a role (`example.com=viewer`);
// the highest role any of them gives wins. Nothing mapped: the sign-in is refused (no default
// role, so a provider shared with other applications does not open the console to everyone).
import { higher, isRole, type Role } from './roles';

export interface OidcRoleMapping {
  claim: string;
  values: Record<string, Role>;
  emailDomains: Record<string, Role>;
}

/** `a=admin,b=viewer` → {a: 'admin', b: 'viewer'}; throws on a role that does not exist. */
export function parseRoleMap(text: string | undefined, variable: string): Record<string, Role> {
  const map: Record<string, Role> = {};
  for (const pair of (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = pair.lastIndexOf('=');
    const [key, role] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    if (at <= 0 || !isRole(role))
      throw new Error(`${variable}: "${pair}" is not <value>=viewer|operator|admin`);
    map[key] = role;
  }
  return map;
}

export function roleFromClaims(claims: Record<string, unknown>, mapping: OidcRoleMapping): Role | undefined {
  let role: Role | undefined;
  const raw = claims[mapping.claim];
  const values = Array.isArray(raw) ? raw : [raw];
  for (const value of values)
    if (typeof value === 'string' && Object.hasOwn(mapping.values, value))
      role = higher(role, mapping.values[value]);
  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : '';
  const domain = email.includes('@') ? email.slice(email.lastIndexOf('@') + 1) : '';
  if (domain && claims.email_verified === true && Object.hasOwn(mapping.emailDomains, domain))
    role = higher(role, mapping.emailDomains[domain]);
  return role;
}
