// The contacts file of forecasts (`snapshot --contacts`, or the engine's GET /admin/mirror/export):
// NDJSON of mirrored contacts, the shape segment filters and guards read, country included so a
// reader never parses phones again. Pure apart from readContactsFile.
//
// `crm-rules/contacts@2` (written since the forecast had to read 100k contacts in well under 2 s)
// is compact: the header names the columns, each contact is a JSON array in that order, dates are
// epoch milliseconds and tags `[id, name]` pairs. No key repeated per line, no date text to parse:
// about half the bytes and a fraction of the parse time of @1 (one object per line, ISO dates),
// which is still read.
import { readFile } from 'node:fs/promises';
import type { Contact } from '@crm-rules/crm-contract';
import { toMirroredContact, type MirroredContact } from '../../language/crm-terms/mirrored-contact';
import { ndjsonLine, parseNdjsonOf } from './ndjson';

export const CONTACTS_FORMAT = 'crm-rules/contacts@2';
/** The object-per-line format of the first exports: still read. */
export const CONTACTS_FORMAT_V1 = 'crm-rules/contacts@1';

/** The columns of @2, in order; the header lists them, the reader finds each by name. */
export const CONTACT_COLUMNS = [
  'id',
  'name',
  'phone',
  'email',
  'status',
  'isBlocked',
  'sourceMethod',
  'assigneeId',
  'stageId',
  'tagIds',
  'tags',
  'customFields',
  'country',
  'createdAt',
  'updatedAt',
  'lastInteractionAt',
] as const;
type Column = (typeof CONTACT_COLUMNS)[number];

export function contactsHeader(source: string, takenAt: Date): string {
  return ndjsonLine({
    format: CONTACTS_FORMAT,
    takenAt: takenAt.toISOString(),
    source,
    columns: CONTACT_COLUMNS,
  });
}

/** One line; avatar, notes and tag colours are left out (no rule or filter reads them). */
export function contactLine(c: MirroredContact): string {
  const cell: Record<Column, unknown> = {
    ...c,
    tags: c.tags.map((t) => [t.id, t.name]),
    createdAt: c.createdAt.getTime(),
    updatedAt: c.updatedAt.getTime(),
    lastInteractionAt: c.lastInteractionAt?.getTime() ?? null,
  };
  return ndjsonLine(CONTACT_COLUMNS.map((column) => cell[column]));
}

export function contactLineFromCrm(c: Contact): string {
  return contactLine(toMirroredContact(c));
}

export interface ContactsFile {
  takenAt: Date;
  source: string;
  contacts: MirroredContact[];
}

/** A date of the file (epoch ms in @2, ISO text in @1), or null. */
const dateOrNull = (v: unknown): Date | null =>
  v === undefined || v === null || v === '' ? null : new Date(v as number | string);

/** A field of one record, by column name (whichever version the record is in). */
type Read = (column: Column) => unknown;

function toContact(read: Read, i: number, file: string): MirroredContact {
  const id = read('id');
  const createdAt = dateOrNull(read('createdAt'));
  if (typeof id !== 'string' || createdAt === null || Number.isNaN(createdAt.getTime()))
    throw new Error(`${file}: record ${i + 1} is not a contact (id and createdAt are required)`);
  const tags = ((read('tags') as unknown[] | undefined) ?? []).map((t) =>
    Array.isArray(t)
      ? { id: String(t[0]), name: String(t[1]), color: '' }
      : { id: (t as { id: string }).id, name: (t as { name: string }).name, color: '' },
  );
  // Members copied one by one, not spread: cheaper per contact, and one object shape for all.
  return {
    id,
    name: read('name') as string,
    phone: read('phone') as string,
    email: (read('email') as string | null | undefined) ?? null,
    avatar: null,
    notes: null,
    status: read('status') as MirroredContact['status'],
    isBlocked: read('isBlocked') === true,
    sourceMethod: read('sourceMethod') as string,
    assigneeId: (read('assigneeId') as string | null | undefined) ?? null,
    stageId: (read('stageId') as string | null | undefined) ?? null,
    tags,
    tagIds: (read('tagIds') as string[] | undefined) ?? tags.map((t) => t.id),
    customFields: (read('customFields') as Record<string, unknown> | undefined) ?? {},
    country: (read('country') as string | null | undefined) ?? null,
    createdAt,
    updatedAt: dateOrNull(read('updatedAt')) ?? createdAt,
    lastInteractionAt: dateOrNull(read('lastInteractionAt')),
  };
}

/** @2: where each column sits in a row, from the header's list (a column it lacks reads as absent). */
function columnIndex(columns: unknown, file: string): Record<Column, number> {
  if (!Array.isArray(columns) || !columns.includes('id'))
    throw new Error(`${file}:1: a ${CONTACTS_FORMAT} header lists its columns`);
  const at = new Map<string, number>(columns.map((c, i) => [String(c), i]));
  return Object.fromEntries(CONTACT_COLUMNS.map((c) => [c, at.get(c) ?? -1])) as Record<Column, number>;
}

export function parseContactsFile(text: string, file: string): ContactsFile {
  const { header, records } = parseNdjsonOf(
    text,
    { [CONTACTS_FORMAT]: 'array', [CONTACTS_FORMAT_V1]: 'object' },
    file,
    (h) => {
      if (h.format !== CONTACTS_FORMAT)
        return (r, i) => toContact((c) => (r as Record<string, unknown>)[c], i, file);
      const index = columnIndex(h.columns, file);
      return (r, i) => toContact((c) => (index[c] < 0 ? undefined : (r as unknown[])[index[c]]), i, file);
    },
  );
  return {
    takenAt: new Date(header.takenAt ?? 0),
    source: String(header.source ?? ''),
    contacts: records,
  };
}

export async function readContactsFile(path: string): Promise<ContactsFile> {
  return parseContactsFile(await readFile(path, 'utf8'), path);
}

/** The Contact (crm-api shape) of a mirrored one: what rule conditions and guards read. */
export function asContact(m: MirroredContact): Contact {
  return {
    ...m,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    lastInteractionAt: m.lastInteractionAt ? m.lastInteractionAt.toISOString() : null,
  } as unknown as Contact;
}
