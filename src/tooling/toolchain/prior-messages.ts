// The customer messages contacts already got, for the caps of a forecast (a cap of 2 a day counts
// what went this morning): read from the engine's ledger (ledger-prior-messages.ts) or from a
// recorded file, `crm-rules/prior-messages@1`: a header, then `{ contactId, sentAt: [ISO...] }` per
// contact (`forecast --record-prior-messages` writes it from the ledger, for a CI without the
// database). Pure apart from reading and writing the file.
import { readFile, writeFile } from 'node:fs/promises';
import { ndjsonLine, parseNdjsonOf } from './ndjson';

export const PRIOR_MESSAGES_FORMAT = 'crm-rules/prior-messages@1';

export interface PriorMessages {
  /** Where they were read: the ledger (a database), a recorded file, or nowhere (none known). */
  source: 'ledger' | 'file' | 'none';
  /** The database (password hidden) or the file. */
  from?: string;
  /** Per contact id: when its customer messages went, within the policy's longest cap period. */
  byContact: ReadonlyMap<string, readonly Date[]>;
  /** Why none are known, e.g. the ledger did not answer. */
  note?: string;
}

export const NO_PRIOR_MESSAGES: PriorMessages = { source: 'none', byContact: new Map() };

/** The line a forecast prints: where its caps started counting from. */
export function describePrior(p: PriorMessages): string {
  const messages = [...p.byContact.values()].reduce((n, list) => n + list.length, 0);
  const counted = `${messages} message(s) to ${p.byContact.size} contact(s) counted against the caps`;
  if (p.source === 'ledger') return `prior messages: from the ledger at ${p.from}: ${counted}`;
  if (p.source === 'file') return `prior messages: from ${p.from}: ${counted}`;
  return `prior messages: none known${p.note ? ` (${p.note})` : ''}: caps counted from zero`;
}

/** What a report (forecast, diff) says of the prior messages counted: numbers, and the line. */
export interface PriorSummary {
  source: PriorMessages['source'];
  from?: string;
  contacts: number;
  messages: number;
  note?: string;
  text: string;
}

export function priorSummary(p: PriorMessages): PriorSummary {
  const messages = [...p.byContact.values()].reduce((n, list) => n + list.length, 0);
  return {
    source: p.source,
    ...(p.from ? { from: p.from } : {}),
    contacts: p.byContact.size,
    messages,
    ...(p.note ? { note: p.note } : {}),
    text: describePrior(p),
  };
}

export function parsePriorMessages(text: string, file: string): Map<string, Date[]> {
  const { records } = parseNdjsonOf(text, { [PRIOR_MESSAGES_FORMAT]: 'object' }, file, () => (r, i) => {
    const { contactId, sentAt } = r as { contactId?: unknown; sentAt?: unknown };
    const dates = Array.isArray(sentAt) ? sentAt.map((t) => new Date(String(t))) : [];
    if (
      typeof contactId !== 'string' ||
      !Array.isArray(sentAt) ||
      dates.some((d) => Number.isNaN(d.getTime()))
    )
      throw new Error(`${file}: record ${i + 1} is not { contactId, sentAt: [ISO date-times] }`);
    return [contactId, dates] as const;
  });
  return new Map(records);
}

export async function readPriorMessagesFile(file: string): Promise<PriorMessages> {
  return { source: 'file', from: file, byContact: parsePriorMessages(await readFile(file, 'utf8'), file) };
}

export function priorMessagesText(p: PriorMessages, takenAt: Date): string {
  const lines = [
    ndjsonLine({ format: PRIOR_MESSAGES_FORMAT, takenAt: takenAt.toISOString(), source: p.from }),
  ];
  for (const [contactId, sent] of p.byContact)
    lines.push(ndjsonLine({ contactId, sentAt: sent.map((d) => d.toISOString()) }));
  return lines.join('');
}

export async function writePriorMessagesFile(file: string, p: PriorMessages, takenAt: Date): Promise<void> {
  await writeFile(file, priorMessagesText(p, takenAt));
}
