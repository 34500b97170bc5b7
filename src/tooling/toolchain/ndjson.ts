// The files the toolchain exchanges with the engine and the CRM are NDJSON: a header line
// `{"format": ..., ...}` then one record per line, so an export streams and a reader needs no
// parser beyond JSON. Pure.

export interface NdjsonHeader {
  format: string;
  takenAt?: string;
  source?: string;
  [extra: string]: unknown;
}

export function ndjsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** How a format writes its records: JSON objects, or JSON arrays in the header's column order. */
export type RecordShape = 'object' | 'array';

/**
 * Header and records of a file in one of several formats (versions), each with the shape of its
 * records; a bad line is an error naming its line number, never skipped silently. Each record
 * is converted as it is read (`convert` gets the header first): a large file keeps only
 * the converted records alive, not the parsed JSON beside them.
 */
export function parseNdjsonOf<T>(
  text: string,
  formats: Record<string, RecordShape>,
  file: string,
  convert: (header: NdjsonHeader) => (record: unknown, index: number) => T,
): { header: NdjsonHeader; records: T[] } {
  const lines = text.split('\n');
  let header: NdjsonHeader | undefined;
  let shape: RecordShape = 'object';
  let toRecord: (record: unknown, index: number) => T = () => {
    throw new Error('unreachable: a record before the header');
  };
  const records: T[] = [];
  const expected = Object.keys(formats).join(' or ');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const isArray = Array.isArray(value);
    if (header === undefined) {
      const h = value as NdjsonHeader | null;
      if (!h || typeof h !== 'object' || isArray || !Object.hasOwn(formats, String(h.format)))
        throw new Error(`${file}:1: expected a ${expected} header line, found ${JSON.stringify(h?.format)}`);
      header = h;
      shape = formats[h.format];
      toRecord = convert(h);
      continue;
    }
    if (!value || typeof value !== 'object' || isArray !== (shape === 'array'))
      throw new Error(`${file}:${i + 1}: expected a JSON ${shape}`);
    records.push(toRecord(value, records.length));
  }
  if (!header) throw new Error(`${file}: empty (expected a ${expected} header line)`);
  return { header, records };
}
