// The contacts file of forecasts (`snapshot --contacts`, or the engine's GET /admin/mirror/export):
// NDJSON of mirrored contacts, the shape segment filters and guards read, country included so a
// reader never parses phones again. Pure apart from readContactsFile.
import { readFile } from 'node:fs/promises';
import type { Contact } from '../crm/crm-types';
import { toMirroredContact, type MirroredContact } from '../contacts/mirrored-contact';
import { ndjsonLine, parseNdjson } from './ndjson';

export const CONTACTS_FORMAT = 'crm-rules/contacts@1';

export function contactsHeader(source: string, takenAt: Date): string {
  return ndjsonLine({ format: CONTACTS_FORMAT, takenAt: takenAt.toISOString(), source });
}

/** One line; avatar, notes and tag colours are left out (no rule or filter reads them). */
export function contactLine(c: MirroredContact): string {
  const { avatar: _avatar, notes: _notes, tags, ...kept } = c;
  return ndjsonLine({ ...kept, tags: tags.map((t) => ({ id: t.id, name: t.name })) });
}

export function contactLineFromCrm(c: Contact): string {
  return contactLine(toMirroredContact(c));
}

export interface ContactsFile {
  takenAt: Date;
  source: string;
  contacts: MirroredContact[];
}

type ContactRecord = Partial<Record<keyof MirroredContact, unknown>> & {
  tags?: { id: string; name: string }[];
};

/** An ISO date of the file, or null: `new Date(string)` once, nothing else per field. */
const dateOrNull = (v: unknown): Date | null =>
  v === undefined || v === null || v === '' ? null : new Date(v as string);

export function parseContactsFile(text: string, file: string): ContactsFile {
  const { header, records } = parseNdjson(text, CONTACTS_FORMAT, file);
  // Members are copied one by one rather than spread (cheaper per contact, and one object shape).
  const contacts = records.map((r, i): MirroredContact => {
    const c = r as ContactRecord;
    const createdAt = dateOrNull(c.createdAt);
    if (typeof c.id !== 'string' || createdAt === null || Number.isNaN(createdAt.getTime()))
      throw new Error(`${file}: record ${i + 1} is not a contact (id and createdAt are required)`);
    return {
      id: c.id,
      name: c.name as string,
      phone: c.phone as string,
      email: (c.email as string | null | undefined) ?? null,
      avatar: null,
      notes: null,
      status: c.status as MirroredContact['status'],
      isBlocked: c.isBlocked as boolean,
      sourceMethod: c.sourceMethod as string,
      assigneeId: (c.assigneeId as string | null | undefined) ?? null,
      stageId: (c.stageId as string | null | undefined) ?? null,
      tags: (c.tags ?? []).map((t) => ({ id: t.id, name: t.name, color: '' })),
      tagIds: (c.tagIds as string[] | undefined) ?? [],
      customFields: (c.customFields as Record<string, unknown> | undefined) ?? {},
      country: (c.country as string | null | undefined) ?? null,
      createdAt,
      updatedAt: dateOrNull(c.updatedAt) ?? createdAt,
      lastInteractionAt: dateOrNull(c.lastInteractionAt),
    };
  });
  return {
    takenAt: new Date(header.takenAt ?? 0),
    source: String(header.source ?? ''),
    contacts,
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
