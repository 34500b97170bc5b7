// docs/CRM-API.md §5: bearer API keys, scopes named <resource>.<action>, 401 codes of
// section 7. Messages never echo the key.
import { SandboxError } from './sandbox-error';
import type { ApiKeyRecord, SandboxState } from './sandbox-state';

export const SCOPE_RESOURCES = [
  'contacts',
  'conversations',
  'messages',
  'tags',
  'stages',
  'segments',
  'custom_fields',
  'users',
  'broadcasts',
  'channels',
  'webhooks',
  'templates',
] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type Scope = `${ScopeResource}.${'read' | 'write'}`;

export const ALL_SCOPES: readonly Scope[] = SCOPE_RESOURCES.flatMap(
  (r) => [`${r}.read`, `${r}.write`] as Scope[],
);
export const READ_SCOPES: readonly Scope[] = ALL_SCOPES.filter((s) => s.endsWith('.read'));

/** Expands a fixture's scope list: `*` means every scope, `*.read` every read scope. */
export function expandScopes(scopes: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const s of scopes) {
    if (s === '*') ALL_SCOPES.forEach((x) => out.add(x));
    else if (s === '*.read') READ_SCOPES.forEach((x) => out.add(x));
    else if ((ALL_SCOPES as readonly string[]).includes(s)) out.add(s);
    else throw new Error(`Unknown scope '${s}' (expected one of ${ALL_SCOPES.join(', ')}, '*' or '*.read')`);
  }
  return out;
}

function authError(code: string, message: string): SandboxError {
  return new SandboxError(401, 'authentication_error', code, message, undefined, {
    'WWW-Authenticate': 'Bearer',
  });
}

/** Resolves the Authorization header to a live key, or throws the 401 of section 7. */
export function authenticate(state: SandboxState, authorization: string | undefined): ApiKeyRecord {
  if (authorization === undefined || authorization.trim() === '')
    throw authError('missing_api_key', 'No API key provided; send Authorization: Bearer <API_KEY>');
  const match = /^Bearer(?:\s+(\S*))?\s*$/i.exec(authorization.trim());
  if (!match) throw authError('invalid_api_key', 'Malformed Authorization header; expected Bearer <API_KEY>');
  if (!match[1])
    throw authError('missing_api_key', 'No API key provided; send Authorization: Bearer <API_KEY>');
  const record = state.apiKeys.get(match[1]);
  if (!record) throw authError('invalid_api_key', 'Invalid API key provided');
  if (record.revoked) throw authError('revoked_api_key', 'This API key has been revoked; generate a new one');
  return record;
}

export function requireScope(key: ApiKeyRecord, scope: Scope): void {
  if (key.scopes.has(scope)) return;
  throw new SandboxError(
    403,
    'permission_error',
    'insufficient_scope',
    `This API key lacks the scope '${scope}' required by this endpoint`,
  );
}
