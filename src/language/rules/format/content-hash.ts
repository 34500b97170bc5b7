// Content hashes: a rule's version (its normalised definition) and a rule set's version.
// Runs record both, so "which rules decided this" is answerable after a reload.
import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal content gives an equal hash whatever the key order. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(obj[k])}`).join(',')}}`;
}

export function contentHash(value: unknown, length = 12): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, length);
}
