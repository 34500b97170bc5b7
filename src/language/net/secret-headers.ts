// `${secret.NAME}` in http-request header values: filled in right before the request leaves,
// from the configured secrets (HTTP_SECRET_<NAME>, HTTP_ACTION_SECRETS_FILE), so a secret is
// never in a rule file, a resolved action, a run trace or a log line. A header is kept as parts,
// text and secret references apart, so a rendered fact that reads `${secret.X}` stays text. Pure.
import { MissingSecretError } from './egress-errors';

export const SECRET_REF = /\$\{secret\.([A-Z][A-Z0-9_]{0,63})\}/g;
/** Any `${...}` at all: only `${secret.NAME}` is meaningful, the rest is a typo to report. */
export const ANY_REF = /\$\{[^}]*\}/;

export type HeaderPart = { text: string } | { secret: string };

/** The secret names a value refers to. */
export function secretNames(value: string): string[] {
  return [...value.matchAll(SECRET_REF)].map((m) => m[1]);
}

/**
 * The header template as parts: the text between references rendered by `render` (mustache),
 * line breaks removed (a header value is one line), the references kept by name.
 */
export function headerParts(template: string, render: (text: string) => string): HeaderPart[] {
  const parts: HeaderPart[] = [];
  const text = (t: string) => t !== '' && parts.push({ text: render(t).replace(/[\r\n]+/g, ' ') });
  let last = 0;
  for (const m of template.matchAll(SECRET_REF)) {
    text(template.slice(last, m.index));
    parts.push({ secret: m[1] });
    last = m.index! + m[0].length;
  }
  text(template.slice(last));
  return parts;
}

export const namesSecret = (parts: readonly HeaderPart[]): boolean => parts.some((p) => 'secret' in p);

/** The header's value with its secrets; throws MissingSecretError naming the first missing one. */
export function joinHeader(parts: readonly HeaderPart[], secrets: Readonly<Record<string, string>>): string {
  return parts
    .map((p) => {
      if ('text' in p) return p.text;
      if (!Object.hasOwn(secrets, p.secret)) throw new MissingSecretError(p.secret);
      return secrets[p.secret];
    })
    .join('');
}
