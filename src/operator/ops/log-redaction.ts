// Logs carry ids, never personal data or SQL parameters: every log line (the engine's messages,
// pino-http's request lines, serialized errors) goes through these before it is written. Phone
// numbers and emails in a message become `[phone]` / `[email]`; a TypeORM QueryFailedError loses
// its SQL text and parameters (the Postgres message and code stay: they say what went wrong).
// Pure: no Nest, no I/O.

// Kept as they are: uuids, ISO timestamps and IPv4 addresses, whose digit runs would read as phone
// numbers.
const KEEP = String.raw`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?|(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])`;
const EMAIL = String.raw`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`;
// 7 to 15 digits (E.164) with the separators people write, not inside a word or a longer number.
const PHONE = String.raw`(?<![\w.+-])\+?\d(?:[ ().-]{0,2}\d){6,14}(?![\w])`;
const PERSONAL = new RegExp(`(${KEEP})|(${EMAIL})|(${PHONE})`, 'gi');
// TypeORM's own error text: `query failed: <sql> -- PARAMETERS: [...]`.
const SQL_PARAMETERS = /--\s*PARAMETERS:\s*\[[\s\S]*?\](?=\s*$|\n)/g;

/** The text with phone numbers and emails replaced; uuids and timestamps kept. */
export function redactPersonalData(text: string): string {
  return text
    .replace(SQL_PARAMETERS, '-- PARAMETERS: [redacted]')
    .replace(PERSONAL, (match, keep: string | undefined, email: string | undefined) =>
      keep ? match : email ? '[email]' : '[phone]',
    );
}

/** Fields of a database error that hold the statement or its values (TypeORM, pg). */
const SQL_FIELDS = ['query', 'parameters', 'driverError', 'detail', 'where', 'internalQuery'];

/** A serialized error (pino's `err`) without SQL text, parameters or personal data. */
export function redactError(err: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (SQL_FIELDS.includes(key)) continue;
    out[key] = typeof value === 'string' ? redactPersonalData(value) : value;
  }
  return out;
}

/**
 * Every string argument of a log call redacted; objects are left to the serializers. An error
 * logged without a message would have pino copy its raw message into `msg`: it gets a redacted one.
 */
export function redactLogArguments(args: unknown[]): unknown[] {
  const out = args.map((arg) => (typeof arg === 'string' ? redactPersonalData(arg) : arg));
  const [first] = args;
  const err = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
  if (err instanceof Error && typeof out[1] !== 'string') out.splice(1, 0, redactPersonalData(err.message));
  return out;
}
