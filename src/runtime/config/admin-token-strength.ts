// Pure. Why an ADMIN_TOKEN is too easy to guess, or undefined when it is fine. The admin token
// opens the admin API, Bull Board and the console: a value copied from an example, or one made
// of a handful of characters, is found by the first person who tries.

/** Example and placeholder values seen in docs, compose files and .env templates (compared lowercased). */
export const KNOWN_EXAMPLE_TOKENS = [
  'changeme',
  'change-me',
  'change_me',
  'please-change-me',
  'admin',
  'admin-token',
  'admin_token',
  'your-admin-token',
  'your_admin_token',
  'my-admin-token',
  'secret',
  'supersecret',
  'password',
  'token',
  'example',
  'example-admin-token',
  'dev-admin-token',
  'local-admin-token',
  'replace-with-openssl-rand-hex-24',
  'openssl rand -hex 24',
];

export const MIN_TOKEN_LENGTH = 32;
export const MIN_DISTINCT_CHARACTERS = 8;

/** The smallest unit the token is a whole repetition of (at least twice), or undefined. */
function repeatedUnit(token: string): string | undefined {
  for (let size = 1; size <= token.length / 2; size++) {
    if (token.length % size !== 0) continue;
    const unit = token.slice(0, size);
    if (unit.repeat(token.length / size) === token) return unit;
  }
  return undefined;
}

/** Never includes the token itself: the message is printed at start-up. */
export function adminTokenWeakness(token: string): string | undefined {
  if (KNOWN_EXAMPLE_TOKENS.includes(token.trim().toLowerCase()))
    return 'is an example value from the docs; generate one with openssl rand -hex 24';
  if (token.length < MIN_TOKEN_LENGTH)
    return `must be at least ${MIN_TOKEN_LENGTH} characters (got ${token.length}); e.g. openssl rand -hex 24`;
  const distinct = new Set(token).size;
  if (distinct === 1) return 'is one character repeated; generate one with openssl rand -hex 24';
  if (distinct < MIN_DISTINCT_CHARACTERS)
    return `has only ${distinct} distinct characters (at least ${MIN_DISTINCT_CHARACTERS}); e.g. openssl rand -hex 24`;
  const unit = repeatedUnit(token);
  if (unit)
    return `is a ${unit.length}-character sequence repeated ${token.length / unit.length} times; e.g. openssl rand -hex 24`;
  return undefined;
}
