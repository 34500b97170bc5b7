// Exact semantics of segment filters (docs/CRM-API.md §2.4) over a mirrored contact. Pure.
// segment-sql.ts builds the same predicate in SQL; a property test keeps the two equal.
// The meaning of every member is documented in docs/SEGMENTS.md; in short:
//   - members combine with AND; omitted members and empty arrays constrain nothing;
//   - inside one array member the values are alternatives (ANY of them), tagIds included;
//   - assigneeIds and includeUnassigned form one set of allowed assignees (null = unassigned);
//   - date ranges are half-open: *After is inclusive, *Before exclusive; a missing date never matches;
//   - customFieldFilters: every item must hold; an item holds when the field's value (or one
//     element of an array value) equals one of its values.
import type { ConditionTrace } from '../rules/format/rule-types';
import type { MirroredContact } from '../crm-terms/mirrored-contact';
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

/**
 * One constraining member of the filters: what the trace shows, and the test. Both the traced
 * match (sweeps, rule tests) and the bare predicate (forecasts over a whole contacts file) run
 * these same tests, so the two cannot disagree.
 */
interface SegmentCheck {
  at: string;
  path: string;
  operator: string;
  expected: unknown;
  actual: (c: MirroredContact) => unknown;
  test: (c: MirroredContact) => boolean;
  note?: string;
  /** A date bound: the trace says when it was evaluated. */
  dated?: true;
}

function segmentChecks(filters: ResolvedFilters): SegmentCheck[] {
  const checks: SegmentCheck[] = [];
  const { tagIds, stageIds, phoneFilters, sourceMethods, countries } = filters;
  if (tagIds)
    checks.push({
      at: 'tagIds',
      path: '$.tags[*].id',
      operator: 'containsAny',
      expected: tagIds,
      actual: (c) => c.tagIds,
      test: (c) => tagIds.some((t) => c.tagIds.includes(t)),
    });
  if (stageIds)
    checks.push({
      at: 'stageIds',
      path: '$.stageId',
      operator: 'in',
      expected: stageIds,
      actual: (c) => c.stageId,
      test: (c) => c.stageId !== null && stageIds.includes(c.stageId),
    });
  const allowed = allowedAssignees(filters);
  if (allowed)
    checks.push({
      at: 'assigneeIds',
      path: '$.assigneeId',
      operator: 'in',
      expected: allowed,
      actual: (c) => c.assigneeId,
      test: (c) => allowed.includes(c.assigneeId),
    });
  for (const member of DATE_MEMBERS) {
    const bound = filters[member];
    if (!bound) continue;
    const field = DATE_FIELD[member];
    const after = member.endsWith('After');
    const ms = bound.getTime();
    checks.push({
      at: member,
      path: `$.${field}`,
      operator: after ? 'onOrAfter' : 'before',
      expected: bound.toISOString(),
      actual: (c) => c[field]?.toISOString() ?? null,
      test: (c) => {
        const value = c[field];
        return value !== null && (after ? value.getTime() >= ms : value.getTime() < ms);
      },
      dated: true,
    });
  }
  if (phoneFilters) {
    const prefixes = phoneFilters.map((p) => p.digits);
    checks.push({
      at: 'phoneFilters',
      path: '$.phone',
      operator: 'startsWithAny',
      expected: prefixes,
      actual: (c) => c.phone,
      test: (c) => prefixes.some((p) => c.phone.startsWith(p)),
    });
  }
  if (sourceMethods)
    checks.push({
      at: 'sourceMethods',
      path: '$.sourceMethod',
      operator: 'in',
      expected: sourceMethods,
      actual: (c) => c.sourceMethod,
      test: (c) => sourceMethods.includes(c.sourceMethod),
    });
  const { status, isBlocked } = filters;
  if (status !== undefined)
    checks.push({
      at: 'status',
      path: '$.status',
      operator: 'equal',
      expected: status,
      actual: (c) => c.status,
      test: (c) => c.status === status,
    });
  if (isBlocked !== undefined)
    checks.push({
      at: 'isBlocked',
      path: '$.isBlocked',
      operator: 'equal',
      expected: isBlocked,
      actual: (c) => c.isBlocked,
      test: (c) => c.isBlocked === isBlocked,
    });
  if (countries)
    checks.push({
      at: 'countries',
      path: '$.phone',
      operator: 'countryIn',
      expected: countries,
      actual: (c) => c.country,
      test: (c) => c.country !== null && countries.includes(c.country),
      note: 'country derived from the phone number',
    });
  filters.customFieldFilters?.forEach((f, i) =>
    checks.push({
      at: `customFieldFilters[${i}]`,
      path: `$.customFields.${f.fieldKey}`,
      operator: 'anyIn',
      expected: f.values,
      actual: (c) => c.customFields[f.fieldKey] ?? null,
      test: (c) => customFieldStrings(c.customFields[f.fieldKey]).some((v) => f.values.includes(v)),
    }),
  );
  return checks;
}

/** Whether the contact is a member, with one trace entry per constraining member. */
export function matchesSegment(filters: ResolvedFilters, contact: MirroredContact, now: Date): SegmentMatch {
  const evaluatedAt = `evaluated at ${now.toISOString()}`;
  const trace: ConditionTrace[] = segmentChecks(filters).map((check) => ({
    fact: 'contact',
    path: check.path,
    operator: check.operator,
    expected: check.expected,
    actual: check.actual(contact),
    result: check.test(contact),
    at: `segment.${check.at}`,
    ...(check.dated ? { note: evaluatedAt } : check.note ? { note: check.note } : {}),
  }));
  return { matched: trace.every((t) => t.result), trace };
}

/**
 * The membership test alone, built once for many contacts (a forecast over a contacts file):
 * no trace, and it stops at the first member that fails. Same tests as matchesSegment.
 */
export function segmentPredicate(filters: ResolvedFilters): (contact: MirroredContact) => boolean {
  const tests = segmentChecks(filters).map((check) => check.test);
  return (contact) => {
    for (const test of tests) if (!test(contact)) return false;
    return true;
  };
}

/** The allowed assignees (null = unassigned), or undefined when the filter sets no constraint. */
export function allowedAssignees(filters: ResolvedFilters): (string | null)[] | undefined {
  const allowed: (string | null)[] = [...(filters.assigneeIds ?? [])];
  if (filters.includeUnassigned === true) allowed.push(null);
  return allowed.length > 0 ? allowed : undefined;
}
