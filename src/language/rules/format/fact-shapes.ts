// What a condition may read: the facts (`event`, `contact`, `message`, `now`) and the
// fields of each, taken from the shapes of crm-types.ts. A path outside these shapes is a
// typo that would silently never match, so the validator refuses it.
import { EVENT_KINDS, SOURCE_METHODS } from '@crm-rules/crm-contract';
import { WEEKDAYS } from '../../matching/clock';
import { isCustomEventKind } from './custom-event-kind';

export type FieldType =
  | { kind: 'string' | 'uuid' | 'date' | 'boolean'; nullable?: boolean }
  | { kind: 'number'; nullable?: boolean; min?: number; max?: number }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'tags' }
  | { kind: 'object'; fields: Readonly<Record<string, FieldType>> }
  | { kind: 'any' };

const str = (nullable = false): FieldType => ({ kind: 'string', nullable });
const uuid = (nullable = false): FieldType => ({ kind: 'uuid', nullable });
const date = (nullable = false): FieldType => ({ kind: 'date', nullable });
const bool: FieldType = { kind: 'boolean' };
const num: FieldType = { kind: 'number' };

export const CONTACT_SHAPE: FieldType = {
  kind: 'object',
  fields: {
    id: uuid(),
    name: str(),
    phone: str(),
    email: str(true),
    avatar: str(true),
    notes: str(true),
    status: { kind: 'enum', values: ['active', 'archived'] },
    isBlocked: bool,
    sourceMethod: { kind: 'enum', values: SOURCE_METHODS },
    assigneeId: uuid(true),
    stageId: uuid(true),
    tags: { kind: 'tags' },
    customFields: { kind: 'any' },
    createdAt: date(),
    updatedAt: date(),
    lastInteractionAt: date(true),
  },
};

export const MESSAGE_SHAPE: FieldType = {
  kind: 'object',
  fields: {
    id: uuid(),
    conversationId: uuid(),
    contactId: uuid(),
    messagePlatformId: str(),
    isOutgoing: bool,
    text: str(true),
    type: str(),
    createdAt: date(),
  },
};

const range = (min: number, max: number): FieldType => ({ kind: 'number', min, max });

/** `now.<part>`: calendar parts of the evaluation time in the rule's time zone (src/language/matching/clock.ts). */
export const CLOCK_SHAPE: FieldType = {
  kind: 'object',
  fields: {
    hour: range(0, 23),
    minute: range(0, 59),
    weekday: { kind: 'enum', values: WEEKDAYS },
    date: str(),
    day: range(1, 31),
    month: range(1, 12),
    year: num,
  },
};

const BROADCAST_SHAPE: FieldType = {
  kind: 'object',
  fields: {
    id: uuid(),
    name: str(),
    channelName: str(),
    segmentName: str(),
    status: str(),
    totalCount: num,
    sentCount: num,
    deliveredCount: num,
    readCount: num,
    repliedCount: num,
    failedCount: num,
    skippedCount: num,
    sentAt: date(true),
    errorCode: str(true),
    errorMessage: str(true),
  },
};

const CHANNEL_SHAPE: FieldType = {
  kind: 'object',
  fields: {
    id: uuid(),
    name: str(),
    platformType: str(),
    status: { kind: 'enum', values: ['connected', 'disconnected'] },
  },
};

/** `event.data` of each kind: the full resource; template payloads are not published, so open. */
export function eventDataShape(kind: string): FieldType {
  if (kind.startsWith('contact.')) return CONTACT_SHAPE;
  if (kind.startsWith('message.')) return MESSAGE_SHAPE;
  if (kind.startsWith('broadcast.')) return BROADCAST_SHAPE;
  if (kind.startsWith('channel.')) return CHANNEL_SHAPE;
  return { kind: 'any' };
}

/**
 * `failure.reason` (the failed action's recorded code: the CRM's error code, `http_404`, …) and
 * `failure.class` (failed: refused; dead: retries used up): read only inside an `on-failure:` arm.
 */
export const FAILURE_SHAPE: FieldType = {
  kind: 'object',
  fields: { reason: str(), class: { kind: 'enum', values: ['failed', 'dead'] } },
};

export const FACT_ROOTS = ['event', 'contact', 'message', 'now', 'failure'] as const;
export type FactRoot = (typeof FACT_ROOTS)[number];

/** Why `failure.*` cannot be read where it is written (outside an on-failure arm). */
export const FAILURE_OUTSIDE_ARM = 'fact "failure" only exists inside an on-failure arm';

/** Why a fact cannot be used by a rule listening to `kind`, or undefined when it can. */
export function factUnavailableReason(root: FactRoot, kind: string): string | undefined {
  if (root === 'message' && !kind.startsWith('message.'))
    return 'fact "message" only exists for message.* events';
  // Custom sources name their contact (sources.yaml): the events worker looks it up.
  if (
    root === 'contact' &&
    !kind.startsWith('message.') &&
    !kind.startsWith('contact.') &&
    !isCustomEventKind(kind)
  )
    return 'fact "contact" only exists for contact.*, message.* and custom.* events';
  return undefined;
}

function eventShape(kind: string): FieldType {
  return {
    kind: 'object',
    fields: {
      id: str(),
      type: { kind: 'enum', values: EVENT_KINDS },
      createdAt: date(),
      data: eventDataShape(kind),
    },
  };
}

export function rootShape(root: FactRoot, kind: string | undefined): FieldType {
  switch (root) {
    case 'contact':
      return CONTACT_SHAPE;
    case 'message':
      return MESSAGE_SHAPE;
    case 'now':
      return date();
    case 'failure':
      return FAILURE_SHAPE;
    case 'event':
      return kind === undefined ? { kind: 'any' } : eventShape(kind);
  }
}

export type FieldLookup = { type: FieldType } | { error: string; field: string; suggestions: string[] };

/** Walks `segments` (e.g. ['data', 'stageId']) from a fact's shape. */
export function lookupField(
  root: FactRoot,
  segments: readonly string[],
  kind: string | undefined,
): FieldLookup {
  // `now` alone is a date-time; with a path it is read as calendar parts.
  let type = root === 'now' && segments.length > 0 ? CLOCK_SHAPE : rootShape(root, kind);
  let walked: string = root;
  for (const seg of segments) {
    if (type.kind === 'any') return { type };
    if (type.kind !== 'object') {
      return {
        error: `${walked} is a ${describeType(type)} and has no field "${seg}"`,
        field: seg,
        suggestions: [],
      };
    }
    const next = Object.prototype.hasOwnProperty.call(type.fields, seg) ? type.fields[seg] : undefined;
    if (!next) {
      const where = kind && root === 'event' ? ` in ${kind} events` : '';
      return {
        error: `${walked} has no field "${seg}"${where}`,
        field: seg,
        suggestions: Object.keys(type.fields),
      };
    }
    type = next;
    walked = `${walked}.${seg}`;
  }
  return { type };
}

export function describeType(type: FieldType): string {
  switch (type.kind) {
    case 'enum':
      return `one of ${type.values.join(', ')}`;
    case 'tags':
      return 'list of tags';
    case 'object':
      return 'object';
    case 'uuid':
      return `uuid${type.nullable ? ' or null' : ''}`;
    case 'date':
      return `date-time${type.nullable ? ' or null' : ''}`;
    default:
      return type.kind === 'any'
        ? 'value'
        : `${type.kind}${'nullable' in type && type.nullable ? ' or null' : ''}`;
  }
}
