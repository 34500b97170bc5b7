// How an event no rule matched keeps its payload once processed (issue 35 goal 1): its JSON text
// deflated against a dictionary of the CRM's event shapes, behind one byte naming the format. About
// a third of the jsonb it replaces (docs/SCALING.md): Postgres compresses only rows over 2 KB, and an
// event row is about 1 KB. Pure: no Nest, no I/O.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Format 1's dictionary: the members and fixed values of the CRM's events (docs/CRM-API.md A18,
 * A19, §2), as JSON.stringify writes them in jsonb's member order. Deflate finds a string cheapest
 * near the dictionary's end, so the contact event, the bulk of the traffic, comes last.
 * NEVER EDIT: every packed row names its dictionary by its first byte; a better one is a new format.
 */
const DICTIONARY_1 = Buffer.from(
  [
    '"message.updated","message.created","conversationId","messagePlatformId","isOutgoing":false,',
    '"isOutgoing":true,"platformType":"whatsapp","channelId":"","lastMessageAt":"","unreadCount":0,',
    '"contactId":"","text":"","type":"text","broadcast.completed","template.status.updated",',
    '"contact.created","contact.deleted","#000000","customFields":{},"sourceMethod":"API",',
    '{"id":"evt_","data":{"id":"","name":"","tags":[{"id":"","name":"","color":"#"}],"email":null,',
    '"notes":null,"phone":"","avatar":null,"status":"active","stageId":"","createdAt":"',
    '","isBlocked":false,"updatedAt":"","assigneeId":null,"customFields":{"plan":""},',
    '"sourceMethod":"WIDGET","lastInteractionAt":"2026-01-01T00:00:00.000Z"},',
    '"type":"contact.updated","createdAt":"2026-01-01T00:00:00.000Z"}',
  ].join(''),
);

interface Format {
  dictionary: Buffer;
  /** A 2 KB window: payloads are about 1 KB, and the default 32 KB window costs more to set up. */
  windowBits: number;
  memLevel: number;
}

const FORMATS: ReadonlyMap<number, Format> = new Map([
  [1, { dictionary: DICTIONARY_1, windowBits: 11, memLevel: 4 }],
]);
const CURRENT_FORMAT = 1;
/** The intake takes bodies up to 1 MB; a packed payload never unpacks to more than this. */
const MAX_UNPACKED_BYTES = 16 * 1024 * 1024;

/** What an event that leaves no run keeps packed: its payload, and the contact before it when noted. */
export interface ToPack {
  payload: unknown;
  /** `previous_contact` as the events worker holds it (kept on the row, or noted this attempt). */
  previous?: unknown;
}

/** The payload as packed bytes: the format's byte, then the deflated JSON text. */
export function packPayload(payload: unknown): Buffer {
  const format = FORMATS.get(CURRENT_FORMAT)!;
  const deflated = deflateRawSync(Buffer.from(JSON.stringify(payload)), {
    dictionary: format.dictionary,
    windowBits: format.windowBits,
    memLevel: format.memLevel,
  });
  return Buffer.concat([Buffer.of(CURRENT_FORMAT), deflated]);
}

/** The payload packPayload packed. Throws on an unknown format or damaged bytes, naming which. */
export function unpackPayload(packed: Buffer): Record<string, unknown> {
  const format = FORMATS.get(packed[0]);
  if (!format) throw new Error(`packed payload: unknown format ${packed[0] ?? '(empty)'}`);
  let text: Buffer;
  try {
    text = inflateRawSync(packed.subarray(1), {
      dictionary: format.dictionary,
      windowBits: format.windowBits,
      maxOutputLength: MAX_UNPACKED_BYTES,
    });
  } catch (err) {
    throw new Error(`packed payload: format ${packed[0]} damaged: ${(err as Error).message}`);
  }
  return JSON.parse(text.toString('utf8')) as Record<string, unknown>;
}

/**
 * A row as its readers expect it: `payload` (and `previous_contact`, when read) as JSON whichever
 * way it was kept, and no packed columns. Rows read without them, or kept as jsonb, pass as they are.
 */
export function withPayload<
  R extends { payload: unknown; payload_packed?: Buffer | null; previous_packed?: Buffer | null },
>(row: R): Omit<R, 'payload_packed' | 'previous_packed'> {
  const { payload_packed: packed, previous_packed: previous, ...rest } = row;
  return {
    ...rest,
    ...(packed ? { payload: unpackPayload(packed) } : {}),
    ...(previous ? { previous_contact: unpackPayload(previous) } : {}),
  };
}
