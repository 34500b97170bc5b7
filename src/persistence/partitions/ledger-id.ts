// Ids of the partitioned ledger (inbox_events, runs, action_results) that name their day: a
// UUIDv7 whose first 48 bits are the milliseconds of the row's partition key. A look-up by id then
// adds the day (ledger_day_from / ledger_day_to, migration 1795990000000, the same arithmetic in
// SQL) and Postgres reads one day's index instead of every day's. Rows from before the migration
// have v4 ids: their look-ups read every day, as before. Pure: no Nest, no SQL.
import { randomBytes } from 'node:crypto';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A UUIDv7 for a row whose partition key is `at` (its milliseconds, then 74 random bits). */
export function ledgerId(at: Date): string {
  const ms = at.getTime();
  if (!Number.isFinite(ms) || ms < 0 || ms >= 2 ** 48) throw new Error(`no ledger id for ${String(at)}`);
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The UTC day `[from, to)` a ledger id names; null for an id that names none (not v7). */
export function dayOfLedgerId(id: string): { from: Date; to: Date } | null {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/i.test(id)) return null;
  const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  const from = Math.floor(ms / DAY_MS) * DAY_MS;
  return { from: new Date(from), to: new Date(from + DAY_MS) };
}

/**
 * SQL that keeps a look-up by id (`param`, a uuid) to the id's day of `key`, for every statement
 * that finds a ledger row by id. Postgres folds the immutable functions of a bound id at planning,
 * so it prunes to one day; an id that names no day reads every day (-infinity, infinity).
 */
export const sameDay = (key: string, param: string): string =>
  `${key} >= ledger_day_from(${param}::uuid) AND ${key} < ledger_day_to(${param}::uuid)`;

/** The same for a look-up of several ids (`param`, a uuid[]): the days from the first to the last. */
export const sameDays = (key: string, param: string): string =>
  `${key} >= ledger_days_from(${param}::uuid[]) AND ${key} < ledger_days_to(${param}::uuid[])`;
