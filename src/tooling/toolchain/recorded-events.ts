// Recorded events (the engine's GET /admin/events/export): NDJSON of webhook events as the inbox
// received them, with the contact the engine evaluated them against when it had one. `diff` and
// `forecast` replay them offline. Pure apart from readEventsFile.
import { readFile } from 'node:fs/promises';
import { factsOf } from '../../language/rules/testing/rule-test-cases';
import type { EvaluationFacts, PreviousState } from '../../language/rules/format/rule-types';
import { ndjsonLine, parseNdjsonOf } from './ndjson';

export const EVENTS_FORMAT = 'crm-rules/events@1';

export interface RecordedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
  contactId: string | null;
  /** For message.* events: the contact state the engine read when it evaluated the event. */
  contact?: Record<string, unknown>;
  /** For contact.* events: the contact before the event, when the engine kept it (change operators). */
  previous?: PreviousState;
}

export function eventsHeader(
  source: string,
  takenAt: Date,
  range: { since?: string; until?: string },
): string {
  return ndjsonLine({ format: EVENTS_FORMAT, takenAt: takenAt.toISOString(), source, ...range });
}

export function eventLine(e: RecordedEvent): string {
  return ndjsonLine(e);
}

export function parseEventsFile(text: string, file: string): RecordedEvent[] {
  // Each event converted as its line is read: 100k events keep one object each, not two.
  return parseNdjsonOf(text, { [EVENTS_FORMAT]: 'object' }, file, () => (record, i) => {
    const r = record as Record<string, unknown>;
    if (typeof r.type !== 'string' || typeof r.createdAt !== 'string')
      throw new Error(`${file}: record ${i + 1} is not an event (type and createdAt are required)`);
    return {
      id: String(r.id ?? `line-${i + 2}`),
      type: r.type,
      createdAt: r.createdAt,
      data: (r.data ?? {}) as Record<string, unknown>,
      contactId: typeof r.contactId === 'string' ? r.contactId : null,
      ...(r.contact && typeof r.contact === 'object'
        ? { contact: r.contact as Record<string, unknown> }
        : {}),
      ...(r.previous && typeof r.previous === 'object' ? { previous: r.previous as PreviousState } : {}),
    };
  }).records;
}

export async function readEventsFile(path: string): Promise<RecordedEvent[]> {
  return parseEventsFile(await readFile(path, 'utf8'), path);
}

/** The facts the engine built for the event, at the time it was received (`previous`: ReplayPrevious). */
export function factsOfRecorded(e: RecordedEvent, previous?: PreviousState): EvaluationFacts {
  const event = { id: e.id, type: e.type, createdAt: e.createdAt, data: e.data };
  const facts = factsOf(event, e.contact, undefined, new Date(e.createdAt));
  if (previous) facts.previous = previous;
  return facts;
}

/** The contact an event concerns: the recorded contact id, else the id inside the payload. */
export function contactIdOf(e: RecordedEvent): string {
  if (e.contactId) return e.contactId;
  const d = e.data;
  const id = e.type.startsWith('contact.') ? d.id : d.contactId;
  return typeof id === 'string' ? id : '(unknown contact)';
}

/**
 * The contact's name and phone as the event saw them (`Dana Demo (+5511900000042)`), or null:
 * the contact in a contact.* payload, else the state read for a message.* event.
 */
export function contactNameOf(e: RecordedEvent): string | null {
  const c = e.type.startsWith('contact.') ? e.data : e.contact;
  const name = c?.name;
  if (typeof name !== 'string' || name === '') return null;
  return typeof c?.phone === 'string' && c.phone ? `${name} (+${c.phone})` : name;
}

/** An inbox row as the export reads it (InboxEventsRepository.views.pageForExport) → a recorded event. */
export function recordedFromInbox(r: {
  id: string;
  type: string;
  payload: { id?: string; createdAt?: string; data?: Record<string, unknown> };
  contact_id: string | null;
  received_at: Date;
  contact: Record<string, unknown> | null;
  previous?: PreviousState | null;
}): RecordedEvent {
  return {
    id: r.payload.id ?? r.id,
    type: r.type,
    createdAt: r.payload.createdAt ?? new Date(r.received_at).toISOString(),
    data: r.payload.data ?? {},
    contactId: r.contact_id,
    ...(r.contact && !r.type.startsWith('contact.') ? { contact: r.contact } : {}),
    ...(r.previous ? { previous: r.previous } : {}),
  };
}
