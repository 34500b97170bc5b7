// GET /v1/contacts: filters, search and sort (docs/CRM-API.md §4.3 and A3).
// Within one array filter the values are alternatives (any of); different filters combine (all of).
import { CONTACT_STATUSES } from '@crm-rules/crm-contract';
import { CONTACT_SORT_KEYS, type ContactSortKey, type SortDirection } from './contact-order';
import type { ContactRecord } from './sandbox-state';
import { pagingSpec, type ParsedQuery } from './query-checks';

export const SORT_ORDERS = ['asc', 'desc'] as const satisfies readonly SortDirection[];

export const CONTACT_LIST_QUERY = {
  ...pagingSpec(100),
  sortBy: { kind: 'enum', values: CONTACT_SORT_KEYS },
  sortOrder: { kind: 'enum', values: SORT_ORDERS },
  search: { kind: 'string', max: 200 },
  status: { kind: 'enum', values: CONTACT_STATUSES },
  isBlocked: { kind: 'bool' },
  isAssigned: { kind: 'bool' },
  tagIds: { kind: 'uuid[]' },
  stageIds: { kind: 'uuid[]' },
  assigneeIds: { kind: 'uuid[]' },
} as const;

export type ContactListQuery = ParsedQuery<typeof CONTACT_LIST_QUERY>;

function matchesSearch(c: ContactRecord, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  const digits = needle.replace(/^\+/, '');
  return (
    c.name.toLowerCase().includes(needle) ||
    (c.email ?? '').toLowerCase().includes(needle) ||
    (/^\d+$/.test(digits) && c.phone.includes(digits))
  );
}

const FILTER_PARAMS = [
  'status',
  'isBlocked',
  'isAssigned',
  'tagIds',
  'stageIds',
  'assigneeIds',
  'search',
] as const;

export function hasContactFilters(q: ContactListQuery): boolean {
  return FILTER_PARAMS.some((name) => q[name] !== undefined);
}

export function contactMatches(c: ContactRecord, q: ContactListQuery): boolean {
  if (q.status !== undefined && c.status !== q.status) return false;
  if (q.isBlocked !== undefined && c.isBlocked !== q.isBlocked) return false;
  if (q.isAssigned !== undefined && (c.assigneeId !== null) !== q.isAssigned) return false;
  if (q.tagIds?.length && !q.tagIds.some((t) => c.tagIds.includes(t))) return false;
  if (q.stageIds?.length && !(c.stageId !== null && q.stageIds.includes(c.stageId))) return false;
  if (q.assigneeIds?.length && !(c.assigneeId !== null && q.assigneeIds.includes(c.assigneeId))) return false;
  if (q.search !== undefined && !matchesSearch(c, q.search)) return false;
  return true;
}

/** Newest first by default; names A to Z. */
export function contactSort(q: ContactListQuery): { key: ContactSortKey; direction: SortDirection } {
  const key = q.sortBy ?? 'createdAt';
  return { key, direction: q.sortOrder ?? (key === 'name' ? 'asc' : 'desc') };
}
