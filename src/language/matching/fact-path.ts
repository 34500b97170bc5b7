// json-rules-engine paths (`$.stageId`, `$.customFields['plan-type']`) compiled once into a
// property walk: JSONPath evaluation per condition is the slowest part of a naive engine.

const SEGMENT_RE = /^(?:\.([A-Za-z_$][\w$-]*)|\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\])/;

/** Segments of a simple path, or undefined when the path uses more than names and indexes. */
export function parseFactPath(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: (string | number)[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    const m = SEGMENT_RE.exec(rest);
    if (!m) return undefined;
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(m[2].replace(/\\(.)/g, '$1'));
    else segments.push(Number(m[3]));
    rest = rest.slice(m[0].length);
  }
  return segments;
}

/** `$.a.b` for plain names, bracket notation for anything else (custom field keys may hold `-`). */
export function toFactPath(segments: readonly string[]): string {
  return (
    '$' +
    segments
      .map((s) => (/^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `['${s.replace(/['\\]/g, '\\$&')}']`))
      .join('')
  );
}

export type PathReader = (value: unknown) => unknown;

export function compilePath(path: string | undefined): PathReader {
  if (!path) return (v) => v;
  const segments = parseFactPath(path);
  if (!segments) throw new Error(`unsupported fact path ${path}`);
  // json-rules-engine applies a path only to objects; other values pass through unchanged.
  // One and two segments (`$.status`, `$.customFields.plan`) are nearly every path: unrolled.
  const isObject = (v: unknown): v is Record<string | number, unknown> => v !== null && typeof v === 'object';
  if (segments.length === 1) {
    const [a] = segments;
    return (value) => (isObject(value) ? value[a] : value);
  }
  if (segments.length === 2) {
    const [a, b] = segments;
    return (value) => {
      if (!isObject(value)) return value;
      const first = value[a];
      return isObject(first) ? first[b] : undefined;
    };
  }
  return (value) => {
    if (value === null || typeof value !== 'object') return value;
    let cur: unknown = value;
    for (const seg of segments) {
      if (cur === null || typeof cur !== 'object') return undefined;
      cur = (cur as Record<string | number, unknown>)[seg];
    }
    return cur;
  };
}
