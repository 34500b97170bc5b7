// What the console's contact search looks for. Pure.

/** Searches shorter than this match too much to be useful. */
export const MIN_SEARCH_LENGTH = 2;

/**
 * The text to look for in name, phone and email, or null when there is nothing to search: a phone
 * typed with `+`, spaces, dashes or brackets is searched by its digits (the mirror keeps digits only).
 */
export function contactSearchTerm(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim().slice(0, 100);
  const phone = /^[+\d\s().-]+$/.test(text) ? text.replace(/\D/g, '') : null;
  const term = phone && phone.length >= MIN_SEARCH_LENGTH ? phone : text;
  return term.length >= MIN_SEARCH_LENGTH ? term : null;
}

/** `Dana Demo (+5511900000042)`; an id the mirror does not hold shows as itself. */
export function contactLabel(name: { name: string; phone: string } | undefined, id: string): string {
  return name ? `${name.name} (+${name.phone})` : id;
}
