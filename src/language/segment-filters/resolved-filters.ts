// From segment filters as written in a rule (names allowed for tags, stages and members;
// relative dates like `now-30d`) to ResolvedFilters: ids, absolute instants and normalised
// values that segment-filter.ts and segment-sql.ts evaluate identically. No Nest, no I/O
// except through the NameDirectory the caller hands in.
import type { ContactStatus, CustomFieldFilter, SegmentFilters } from '@crm-rules/crm-contract';
import { isUuid, resolveFilterDate } from '@crm-rules/crm-contract';
import { unsupportedSegmentMemberReason } from '../rules/format/unsupported-segment-members';
import { callingCodeDigits } from './calling-code';
import { SegmentFilterError } from './segment-filter-error';

export interface ResolvedPhoneFilter {
  countryCode: string;
  prefix: string;
  /** Calling code digits followed by the prefix: what the digits-only phone must start with. */
  digits: string;
}

/** Omitted members (and empty arrays) are absent: absent means "no constraint". */
export interface ResolvedFilters {
  tagIds?: string[];
  stageIds?: string[];
  assigneeIds?: string[];
  includeUnassigned?: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  lastUpdatedAfter?: Date;
  lastUpdatedBefore?: Date;
  lastInteractionAfter?: Date;
  lastInteractionBefore?: Date;
  phoneFilters?: ResolvedPhoneFilter[];
  sourceMethods?: string[];
  status?: ContactStatus;
  isBlocked?: boolean;
  /** Upper-case ISO 3166-1 alpha-2 codes. */
  countries?: string[];
  customFieldFilters?: CustomFieldFilter[];
}

export type RuleSegmentFilters = SegmentFilters & Record<string, unknown>;

export const DATE_MEMBERS = [
  'createdAfter',
  'createdBefore',
  'lastUpdatedAfter',
  'lastUpdatedBefore',
  'lastInteractionAfter',
  'lastInteractionBefore',
] as const;

const ID_MEMBERS = ['tagIds', 'stageIds', 'assigneeIds'] as const;
const HANDLED = new Set<string>([
  ...ID_MEMBERS,
  ...DATE_MEMBERS,
  'includeUnassigned',
  'phoneFilters',
  'sourceMethods',
  'status',
  'isBlocked',
  'countries',
  'customFieldFilters',
]);

/** The directory of the gateway (CrmDirectory) or anything that answers like it. */
export interface NameDirectory {
  resolveTag(nameOrId: string): Promise<{ id: string }>;
  resolveStage(nameOrId: string): Promise<{ id: string }>;
  resolveMember(nameOrId: string): Promise<{ id: string }>;
}

/** tagIds / stageIds / assigneeIds may name things in rules; the CRM and the mirror know ids. */
export async function resolveFilterNames(
  filters: RuleSegmentFilters,
  directory: NameDirectory,
): Promise<RuleSegmentFilters> {
  const out: RuleSegmentFilters = { ...filters };
  const lookups = {
    tagIds: directory.resolveTag,
    stageIds: directory.resolveStage,
    assigneeIds: directory.resolveMember,
  };
  for (const member of ID_MEMBERS) {
    const values = filters[member];
    if (!Array.isArray(values)) continue;
    const lookup = lookups[member].bind(directory);
    out[member] = await Promise.all(values.map(async (v) => (isUuid(v) ? v : (await lookup(String(v))).id)));
  }
  return out;
}

/** Members that constrain nothing: omitted, null, or an empty array. */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

function strings(member: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new SegmentFilterError(`${member}: expected an array of strings`);
  return value as string[];
}

function ids(member: string, value: unknown): string[] {
  const list = strings(member, value);
  const bad = list.find((v) => !isUuid(v));
  if (bad !== undefined)
    throw new SegmentFilterError(`${member}: "${bad}" is not a uuid (names must be resolved first)`);
  return [...new Set(list.map((v) => v.toLowerCase()))];
}

function bool(member: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new SegmentFilterError(`${member}: expected true or false`);
  return value;
}

/** Refuses members the contact data cannot answer, and members 2.4 does not define. */
function checkMembers(filters: RuleSegmentFilters): void {
  for (const [member, value] of Object.entries(filters)) {
    if (HANDLED.has(member)) continue;
    const reason = unsupportedSegmentMemberReason(member);
    if (reason === undefined)
      throw new SegmentFilterError(`${member}: not a segment filter member (docs/CRM-API.md §2.4)`);
    if (!isEmpty(value))
      throw new SegmentFilterError(`${member}: cannot be evaluated by the engine: ${reason}`);
  }
}

/** Resolves relative dates against `now` and normalises every member; throws SegmentFilterError. */
export function resolveRelativeDates(filters: RuleSegmentFilters, now: Date): ResolvedFilters {
  checkMembers(filters);
  const out: ResolvedFilters = {};
  for (const member of ID_MEMBERS) if (!isEmpty(filters[member])) out[member] = ids(member, filters[member]);
  if (!isEmpty(filters.includeUnassigned))
    out.includeUnassigned = bool('includeUnassigned', filters.includeUnassigned);
  for (const member of DATE_MEMBERS) {
    const raw = filters[member];
    if (isEmpty(raw)) continue;
    const at = typeof raw === 'string' ? resolveFilterDate(raw, now) : undefined;
    if (!at)
      throw new SegmentFilterError(
        `${member}: "${String(raw)}" is neither an ISO 8601 date-time nor now[+-]<n><s|m|h|d|w>`,
      );
    out[member] = at;
  }
  if (!isEmpty(filters.phoneFilters)) out.phoneFilters = phoneFilters(filters.phoneFilters);
  if (!isEmpty(filters.sourceMethods))
    out.sourceMethods = [...new Set(strings('sourceMethods', filters.sourceMethods))];
  if (!isEmpty(filters.status)) {
    if (filters.status !== 'active' && filters.status !== 'archived')
      throw new SegmentFilterError('status: expected active or archived');
    out.status = filters.status;
  }
  if (!isEmpty(filters.isBlocked)) out.isBlocked = bool('isBlocked', filters.isBlocked);
  if (!isEmpty(filters.countries))
    out.countries = [...new Set(strings('countries', filters.countries).map((c) => c.trim().toUpperCase()))];
  if (!isEmpty(filters.customFieldFilters))
    out.customFieldFilters = customFieldFilters(filters.customFieldFilters);
  return out;
}

function phoneFilters(value: unknown): ResolvedPhoneFilter[] {
  if (!Array.isArray(value)) throw new SegmentFilterError('phoneFilters: expected an array');
  return value.map((item: Partial<ResolvedPhoneFilter>, i) => {
    const countryCode = typeof item?.countryCode === 'string' ? item.countryCode : '';
    const prefix = typeof item?.prefix === 'string' ? item.prefix : '';
    if (!/^\d*$/.test(prefix)) throw new SegmentFilterError(`phoneFilters[${i}].prefix: digits only`);
    return { countryCode, prefix, digits: callingCodeDigits(countryCode) + prefix };
  });
}

function customFieldFilters(value: unknown): CustomFieldFilter[] {
  if (!Array.isArray(value)) throw new SegmentFilterError('customFieldFilters: expected an array');
  return value.map((item: Partial<CustomFieldFilter>, i) => {
    if (typeof item?.fieldKey !== 'string' || item.fieldKey === '')
      throw new SegmentFilterError(`customFieldFilters[${i}].fieldKey: a non-empty string is required`);
    const values = strings(`customFieldFilters[${i}].values`, item.values);
    if (values.length === 0)
      throw new SegmentFilterError(`customFieldFilters[${i}].values: at least one value is required`);
    return { fieldKey: item.fieldKey, values: [...new Set(values)] };
  });
}

/** The ISO form of resolved filters: what sync sends to POST /v1/segments and what plan shows. */
export function toCrmFilters(f: ResolvedFilters): SegmentFilters {
  const out: SegmentFilters = {};
  for (const [member, value] of Object.entries(f) as [keyof ResolvedFilters, unknown][]) {
    if (value instanceof Date) (out as Record<string, unknown>)[member] = value.toISOString();
    else if (member === 'phoneFilters')
      out.phoneFilters = f.phoneFilters!.map(({ countryCode, prefix }) => ({ countryCode, prefix }));
    else (out as Record<string, unknown>)[member] = value;
  }
  return out;
}
