// The single home of docs/CRM-API.md §2.4's constraints on segment names and filters.
// Used by the sandbox (POST /v1/segments) and by the rules validator (segment rules),
// so both refuse exactly the same inputs. Pure: no Nest, no I/O.
//
// Detail codes (a zod-like vocabulary, documented in docs/SANDBOX.md):
//   invalid_type        wrong JSON type, or a required member is missing ("Required")
//   invalid_string      string of the right type but wrong format (uuid, date-time, pattern)
//   invalid_enum_value  value outside an enum
//   too_small / too_big string length or array size outside its bounds
//   unrecognized_keys   a member the object does not define (one detail per unknown key)
// One detail per failing field: the first failing check of that field.
import { SOURCE_METHODS, type CrmErrorDetail } from './crm-types';

type ConstraintCode =
  'invalid_type' | 'invalid_string' | 'invalid_enum_value' | 'too_small' | 'too_big' | 'unrecognized_keys';

export interface SegmentFilterValidationOptions {
  /** Date members also accept `now`, `now-30d`, `now+2h` (units s, m, h, d, w). */
  allowRelativeDates?: boolean;
  /**
   * tagIds, stageIds and assigneeIds also take names (rules: the engine resolves them through the
   * directory, by name or uuid, before it evaluates or sends the filters). The CRM takes uuids only.
   */
  allowNames?: boolean;
  /** Prefix of every `param` path; default `filters`. */
  paramPrefix?: string;
}

const SEGMENT_NAME_MAX_LENGTH = 30;
const PHONE_FILTERS_MAX_ITEMS = 5;
const PHONE_COUNTRY_CODE_MAX_LENGTH = 5;
const PHONE_PREFIX_MAX_LENGTH = 10;
export const CONTACT_STATUSES = ['active', 'archived'] as const;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// ISO 8601 / RFC 3339 date-time with an explicit offset; seconds and fraction optional.
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const RELATIVE_DATE_RE = /^now(?:([+-])(\d{1,9})([smhdw]))?$/;
const DIGITS_RE = /^\d*$/;
const UNIT_MS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 604800e3 };

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

/** A real calendar date-time with an explicit offset (`Z` or `±hh:mm`). */
export function isIsoDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_TIME_RE.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((v) => Number(v ?? 0));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour < 24 && minute < 60 && second < 60
  );
}

function isRelativeDate(value: unknown): value is string {
  return typeof value === 'string' && RELATIVE_DATE_RE.test(value);
}

/** Resolves `now`, `now-30d`, `now+2h` or an ISO date-time against `now`; undefined if neither. */
export function resolveFilterDate(value: string, now: Date): Date | undefined {
  const rel = RELATIVE_DATE_RE.exec(value);
  if (rel) {
    if (!rel[1]) return new Date(now.getTime());
    const sign = rel[1] === '-' ? -1 : 1;
    return new Date(now.getTime() + sign * Number(rel[2]) * UNIT_MS[rel[3]]);
  }
  return isIsoDateTime(value) ? new Date(value) : undefined;
}

// The check builders below are exported so the sandbox validates every request body with
// the same vocabulary and messages.
export type Check = (value: unknown, param: string, opts: SegmentFilterValidationOptions) => CrmErrorDetail[];

export const detail = (param: string, code: ConstraintCode, message: string): CrmErrorDetail => ({
  param,
  code,
  message,
});

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'nan';
  return typeof value;
}

export function expectType(value: unknown, param: string, expected: string): CrmErrorDetail | undefined {
  if (value === undefined) return detail(param, 'invalid_type', 'Required');
  const actual = typeName(value);
  return actual === expected
    ? undefined
    : detail(param, 'invalid_type', `Expected ${expected}, received ${actual}`);
}

/** A string with optional length bounds and pattern; exported for other body validators. */
export function checkString(
  value: unknown,
  param: string,
  rules: { min?: number; max?: number; pattern?: RegExp; patternName?: string } = {},
): CrmErrorDetail[] {
  const wrongType = expectType(value, param, 'string');
  if (wrongType) return [wrongType];
  const length = [...(value as string)].length; // code points, not UTF-16 units
  if (rules.min !== undefined && length < rules.min)
    return [detail(param, 'too_small', `String must contain at least ${rules.min} character(s)`)];
  if (rules.max !== undefined && length > rules.max)
    return [detail(param, 'too_big', `String must contain at most ${rules.max} character(s)`)];
  if (rules.pattern && !rules.pattern.test(value as string))
    return [detail(param, 'invalid_string', `Invalid ${rules.patternName ?? 'format'}`)];
  return [];
}

export const uuidCheck: Check = (value, param) => {
  const wrongType = expectType(value, param, 'string');
  if (wrongType) return [wrongType];
  return isUuid(value) ? [] : [detail(param, 'invalid_string', 'Invalid uuid')];
};

export const booleanCheck: Check = (value, param) => {
  const wrongType = expectType(value, param, 'boolean');
  return wrongType ? [wrongType] : [];
};

const dateCheck: Check = (value, param, opts) => {
  const wrongType = expectType(value, param, 'string');
  if (wrongType) return [wrongType];
  if (isIsoDateTime(value)) return [];
  if (opts.allowRelativeDates && isRelativeDate(value)) return [];
  const hint = opts.allowRelativeDates
    ? 'an ISO 8601 date-time or now[+-]<n><s|m|h|d|w>'
    : 'an ISO 8601 date-time';
  return [detail(param, 'invalid_string', `Invalid datetime: expected ${hint}`)];
};

export function enumCheck(values: readonly string[]): Check {
  return (value, param) => {
    const wrongType = expectType(value, param, 'string');
    if (wrongType) return [wrongType];
    if (values.includes(value as string)) return [];
    const expected = values.map((v) => `'${v}'`).join(' | ');
    return [
      detail(
        param,
        'invalid_enum_value',
        `Invalid enum value. Expected ${expected}, received '${String(value)}'`,
      ),
    ];
  };
}

const nonEmptyString: Check = (value, param) => checkString(value, param, { min: 1 });

export function arrayOf(item: Check, maxItems?: number, minItems?: number): Check {
  return (value, param, opts) => {
    const wrongType = expectType(value, param, 'array');
    if (wrongType) return [wrongType];
    const items = value as unknown[];
    const out: CrmErrorDetail[] = [];
    if (maxItems !== undefined && items.length > maxItems)
      out.push(detail(param, 'too_big', `Array must contain at most ${maxItems} element(s)`));
    if (minItems !== undefined && items.length < minItems)
      out.push(detail(param, 'too_small', `Array must contain at least ${minItems} element(s)`));
    items.forEach((v, i) => out.push(...item(v, `${param}[${i}]`, opts)));
    return out;
  };
}

/** A strict object: every member checked, unknown members reported one by one. */
export function objectOf(shape: Record<string, Check>, required: readonly string[] = []): Check {
  return (value, param, opts) => {
    // An empty param is a request body's root: members are then named without a prefix.
    const wrongType = expectType(value, param || 'body', 'object');
    if (wrongType) return [wrongType];
    const obj = value as Record<string, unknown>;
    const child = (key: string) => (param ? `${param}.${key}` : key);
    const out: CrmErrorDetail[] = [];
    for (const key of Object.keys(obj)) {
      if (!Object.prototype.hasOwnProperty.call(shape, key))
        out.push(detail(child(key), 'unrecognized_keys', `Unrecognized key: '${key}'`));
    }
    for (const [key, check] of Object.entries(shape)) {
      if (obj[key] === undefined && !required.includes(key)) continue;
      out.push(...check(obj[key], child(key), opts));
    }
    return out;
  };
}

const phoneFilterCheck = objectOf(
  {
    countryCode: (v, p) => checkString(v, p, { max: PHONE_COUNTRY_CODE_MAX_LENGTH }),
    prefix: (v, p) =>
      checkString(v, p, {
        max: PHONE_PREFIX_MAX_LENGTH,
        pattern: DIGITS_RE,
        patternName: 'prefix: digits only',
      }),
  },
  ['countryCode', 'prefix'],
);

const customFieldFilterCheck = objectOf(
  { fieldKey: nonEmptyString, values: arrayOf((v, p) => checkString(v, p), undefined, 1) },
  ['fieldKey', 'values'],
);

/** Every member of docs/CRM-API.md §2.4 Segment filters, in the document's order. */
/** A tag, stage or member: its uuid, or (allowNames) its name, resolved later by the directory. */
const directoryRefCheck: Check = (value, param, opts) =>
  opts.allowNames ? nonEmptyString(value, param, opts) : uuidCheck(value, param, opts);

const SEGMENT_FILTER_SHAPE: Readonly<Record<string, Check>> = {
  tagIds: arrayOf(directoryRefCheck),
  stageIds: arrayOf(directoryRefCheck),
  assigneeIds: arrayOf(directoryRefCheck),
  includeUnassigned: booleanCheck,
  channelIds: arrayOf(uuidCheck),
  createdAfter: dateCheck,
  createdBefore: dateCheck,
  lastUpdatedAfter: dateCheck,
  lastUpdatedBefore: dateCheck,
  lastInteractionAfter: dateCheck,
  lastInteractionBefore: dateCheck,
  phoneFilters: arrayOf(phoneFilterCheck, PHONE_FILTERS_MAX_ITEMS),
  adIds: arrayOf(nonEmptyString),
  campaignIds: arrayOf(nonEmptyString),
  adSetIds: arrayOf(nonEmptyString),
  adUrls: arrayOf(nonEmptyString),
  hasConversations: booleanCheck,
  sourceMethods: arrayOf(enumCheck(SOURCE_METHODS)),
  status: enumCheck(CONTACT_STATUSES),
  broadcastIds: arrayOf(uuidCheck),
  isBlocked: booleanCheck,
  countries: arrayOf(nonEmptyString),
  customFieldFilters: arrayOf(customFieldFilterCheck),
};

export const SEGMENT_FILTER_MEMBERS: readonly string[] = Object.keys(SEGMENT_FILTER_SHAPE);

const filtersCheck = objectOf(SEGMENT_FILTER_SHAPE);

/** All failing fields of a Segment filters object (docs/CRM-API.md §2.4); [] when valid. */
export function validateSegmentFilters(
  filters: unknown,
  opts: SegmentFilterValidationOptions = {},
): CrmErrorDetail[] {
  return filtersCheck(filters, opts.paramPrefix ?? 'filters', opts);
}

/** Segment name: a string of 1 to 30 characters (code points). Uniqueness is the caller's job. */
export function validateSegmentName(name: unknown, paramName = 'name'): CrmErrorDetail[] {
  return checkString(name, paramName, { min: 1, max: SEGMENT_NAME_MAX_LENGTH });
}
