// How deep a JSON text nests, read from its raw bytes before JSON.parse: one linear scan, no
// recursion and no allocation, so a 50,000-deep body costs what a flat one of the same size costs.
// Pure: no Nest, no I/O.

/**
 * Deepest nesting a delivery may have (objects and arrays counted together). A CRM event nests
 * 4 or 5 levels; a custom source's payload rarely more than 10. Past this, the value breaks
 * JSON.stringify and recursive readers later (the admin page, the export), so intake refuses it.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when no point of `raw` is nested deeper than `limit`. Brackets inside strings do not
 * count (a backslash escapes the next byte; multi-byte UTF-8 never contains these ASCII bytes).
 * The text need not be valid JSON: JSON.parse judges that afterwards.
 */
export function withinJsonDepth(raw: Uint8Array, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return false;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
  }
  return true;
}

/** The depth of an already-parsed value, without recursion (a stored row read back). */
export function jsonDepthAtMost(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length) {
    const top = stack.pop()!;
    if (top.value === null || typeof top.value !== 'object') continue;
    const depth = top.depth + 1;
    if (depth > limit) return false;
    for (const child of Array.isArray(top.value) ? top.value : Object.values(top.value))
      stack.push({ value: child, depth });
  }
  return true;
}

/** What stands in for a part of a stored value nested deeper than the limit. */
export const TOO_DEEP_MARKER = `[nested deeper than ${MAX_JSON_DEPTH} levels: not shown]`;

/**
 * The value itself when it nests no deeper than `limit`; else a copy whose parts past the limit
 * are TOO_DEEP_MARKER, so JSON.stringify (a stack-deep recursion) cannot fail on it. For rows
 * stored before intake refused such payloads: the admin page and the export show them, cut.
 * The copy recurses at most `limit` levels.
 */
export function clipJsonDepth<T>(value: T, limit: number = MAX_JSON_DEPTH): T {
  if (jsonDepthAtMost(value, limit)) return value;
  const clip = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (depth >= limit) return TOO_DEEP_MARKER;
    if (Array.isArray(v)) return v.map((x) => clip(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clip(x, depth + 1)]));
  };
  return clip(value, 0) as T;
}
