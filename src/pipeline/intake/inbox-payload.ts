// What of a verified delivery goes into inbox_events, and how. Pure: no Nest, no I/O.
import { createHash } from 'node:crypto';
import { isUuid } from '../../outbound/crm-gateway/crm-http';

/** Derives the deduplication key: the CRM's event id, or a hash of the exact bytes. */
export function eventKeyOf(payload: Record<string, unknown>, rawBody: Buffer): string {
  if (typeof payload.id === 'string' && payload.id.length > 0) return `id:${payload.id}`;
  return `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
}

const EARLIEST_EVENT = Date.UTC(2000, 0, 1);
const LATEST_EVENT = Date.UTC(9999, 0, 1);

/**
 * The event's time from its signed body: `createdAt` when it is a date (the CRM's events carry it,
 * docs/CRM-API.md A19), else null (the inbox dates it by arrival). A resend is the same body, so
 * the same time: the inbox row's partition key and part of its dedupe key.
 */
export function eventTimeOf(payload: Record<string, unknown>): Date | null {
  if (typeof payload.createdAt !== 'string') return null;
  const at = Date.parse(payload.createdAt);
  return Number.isFinite(at) && at >= EARLIEST_EVENT && at < LATEST_EVENT ? new Date(at) : null;
}

// A `\u0000` escape that is not itself escaped (`\\u0000` is a backslash and the text "u0000").
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * Postgres jsonb cannot hold U+0000, yet a signed payload may carry it. The payload column gets
 * it as U+FFFD so the event can be matched; the exact text is kept beside it (raw: the JSON
 * escape `\u0000` is plain text for Postgres), so nothing the CRM sent is lost.
 */
export function storableJson(text: string): { json: string; raw: string | null } {
  const json = text.replace(NUL_ESCAPE, '$1\\ufffd');
  return json === text ? { json: text, raw: null } : { json, raw: text };
}

export type ContactIdCheck = { ok: true; contactId: string | null } | { ok: false; reason: string };

/**
 * The contact an event is about (`data.id` of contact events, `data.contactId` of the others),
 * which later goes into CRM paths: it must be a uuid (docs/CRM-API.md §2) or absent.
 */
export function contactIdOf(payload: Record<string, unknown>): ContactIdCheck {
  const data = payload.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object') return { ok: true, contactId: null };
  const isContactEvent = typeof payload.type === 'string' && payload.type.startsWith('contact.');
  const member = isContactEvent ? 'id' : 'contactId';
  const value = data[member];
  if (value === undefined || value === null) return { ok: true, contactId: null };
  if (!isUuid(value)) return { ok: false, reason: `data.${member} must be a uuid` };
  return { ok: true, contactId: value.toLowerCase() };
}
