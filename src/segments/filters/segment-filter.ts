// Exact semantics of segment filters (docs/CRM-API.md §2.4) over a mirrored contact. Pure.
// segment-sql.ts builds the same predicate in SQL; a property test keeps the two equal.
// The meaning of every member is documented in docs/SEGMENTS.md; in short:
//   - members combine with AND; omitted members and empty arrays constrain nothing;
//   - inside one array member the values are alternatives (ANY of them), tagIds included;
//   - assigneeIds and includeUnassigned form one set of allowed assignees (null = unassigned);
//   - date ranges are half-open: *After is inclusive, *Before exclusive; a missing date never matches;
//   - customFieldFilters: every item must hold; an item holds when the field's value (or one
//     element of an array value) equals one of its values.
import type { ConditionTrace } from '../../rules/rule-types';
import type { MirroredContact } from '../../contacts/mirrored-contact';
import { DATE_MEMBERS, type ResolvedFilters } from './resolved-filters';

export interface SegmentMatch {
  matched: boolean;
  trace: ConditionTrace[];
}

type DateMember = (typeof DATE_MEMBERS)[number];

const DATE_FIELD: Record<DateMember, 'createdAt' | 'updatedAt' | 'lastInteractionAt'> = {
  createdAfter: 'createdAt',
  createdBefore: 'createdAt',
  lastUpdatedAfter: 'updatedAt',
  lastUpdatedBefore: 'updatedAt',
  lastInteractionAfter: 'lastInteractionAt',
  lastInteractionBefore: 'lastInteractionAt',
};

/** Values of a custom field that can equal a filter value: a string, or the strings of an array. */
export function customFieldStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

export function matchesSegment(filters: ResolvedFilters, contact: MirroredContact, now: Date): SegmentMatch {
  const trace: ConditionTrace[] = [];
  const check = (
    at: string,
    path: string,
    operator: string,
    expected: unknown,
    actual: unknown,
    result: boolean,
    note?: string,
  ) =>
    trace.push({
      fact: 'contact',
      path,
      operator,
      expected,
      actual,
      result,
      at: `segment.${at}`,
      ...(note ? { note } : {}),
    });

  if (filters.tagIds) {
    const hit = filters.tagIds.some((t) => contact.tagIds.includes(t));
    check('tagIds', '$.tags[*].id', 'containsAny', filters.tagIds, contact.tagIds, hit);
  }
  if (filters.stageIds) {
    const hit = contact.stageId !== null && filters.stageIds.includes(contact.stageId);
    check('stageIds', '$.stageId', 'in', filters.stageIds, contact.stageId, hit);
  }
  const allowed = allowedAssignees(filters);
  if (allowed)
    check(
      'assigneeIds',
      '$.assigneeId',
      'in',
      allowed,
      contact.assigneeId,
      allowed.includes(contact.assigneeId),
    );
  for (const member of DATE_MEMBERS) {
    const bound = filters[member];
    if (!bound) continue;
    const value = contact[DATE_FIELD[member]];
    const after = member.endsWith('After');
    const hit =
      value !== null && (after ? value.getTime() >= bound.getTime() : value.getTime() < bound.getTime());
    const note = `evaluated at ${now.toISOString()}`;
    check(
      member,
      `$.${DATE_FIELD[member]}`,
      after ? 'onOrAfter' : 'before',
      bound.toISOString(),
      value?.toISOString() ?? null,
      hit,
      note,
    );
  }
  if (filters.phoneFilters) {
    const prefixes = filters.phoneFilters.map((p) => p.digits);
    check(
      'phoneFilters',
      '$.phone',
      'startsWithAny',
      prefixes,
      contact.phone,
      prefixes.some((p) => contact.phone.startsWith(p)),
    );
  }
  if (filters.sourceMethods) {
    check(
      'sourceMethods',
      '$.sourceMethod',
      'in',
      filters.sourceMethods,
      contact.sourceMethod,
      filters.sourceMethods.includes(contact.sourceMethod),
    );
  }
  if (filters.status !== undefined)
    check('status', '$.status', 'equal', filters.status, contact.status, contact.status === filters.status);
  if (filters.isBlocked !== undefined) {
    check(
      'isBlocked',
      '$.isBlocked',
      'equal',
      filters.isBlocked,
      contact.isBlocked,
      contact.isBlocked === filters.isBlocked,
    );
  }
  if (filters.countries) {
    const hit = contact.country !== null && filters.countries.includes(contact.country);
    check(
      'countries',
      '$.phone',
      'countryIn',
      filters.countries,
      contact.country,
      hit,
      'country derived from the phone number',
    );
  }
  filters.customFieldFilters?.forEach((f, i) => {
    const actual = contact.customFields[f.fieldKey];
    const hit = customFieldStrings(actual).some((v) => f.values.includes(v));
    check(`customFieldFilters[${i}]`, `$.customFields.${f.fieldKey}`, 'anyIn', f.values, actual ?? null, hit);
  });
  return { matched: trace.every((t) => t.result), trace };
}

/** The allowed assignees (null = unassigned), or undefined when the filter sets no constraint. */
export function allowedAssignees(filters: ResolvedFilters): (string | null)[] | undefined {
  const allowed: (string | null)[] = [...(filters.assigneeIds ?? [])];
  if (filters.includeUnassigned === true) allowed.push(null);
  return allowed.length > 0 ? allowed : undefined;
}
