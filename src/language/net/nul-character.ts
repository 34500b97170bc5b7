// Whether a request's value holds U+0000, which Postgres text and jsonb cannot store: a parameter,
// query or body carrying one reached a statement and failed there as a 500 (the request fuzz:
// GET /admin/sweeps/%00). No field of the engine takes it, so every route refuses it as bad input.
// Pure: no Nest, no I/O.

const NUL = '\u0000';

/**
 * True when `value` (a string, or arrays and plain objects of them, keys included) holds U+0000.
 * Walked without recursion, so a deep body costs what a flat one of the same size costs; binary
 * bodies (Buffer and other byte arrays) are not text and pass.
 */
export function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes(NUL)) return true;
    } else if (Array.isArray(next)) {
      pending.push(...next);
    } else if (next !== null && typeof next === 'object' && !ArrayBuffer.isView(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes(NUL)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
