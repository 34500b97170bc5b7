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

/** Header and records; a bad line is an error naming its line number, never skipped silently. */
export function parseNdjson(
  text: string,
  format: string,
  file: string,
): { header: NdjsonHeader; records: Record<string, unknown>[] } {
  const lines = text.split('\n');
  let header: NdjsonHeader | undefined;
  const records: Record<string, unknown>[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new Error(`${file}:${i + 1}: expected a JSON object`);
    if (header === undefined) {
      const h = value as NdjsonHeader;
      if (h.format !== format)
        throw new Error(`${file}:1: expected a ${format} header line, found ${JSON.stringify(h.format)}`);
      header = h;
      continue;
    }
    records.push(value as Record<string, unknown>);
  }
  if (!header) throw new Error(`${file}: empty (expected a ${format} header line)`);
  return { header, records };
}
