// The SQL twin of segment-filter.ts: a parameterised WHERE fragment over the contact_mirror table,
// never a statement: only a repository (segment-memberships.repository.ts) puts it into SQL text
// (dependency-cruiser: segment-sql-only-in-repositories). Every value travels as a parameter; only
// column names (fixed here) and the parameter numbers are written into the text. Pure: it builds
// strings, it does not query.
import { DATE_MEMBERS, type ResolvedFilters } from './resolved-filters';
import { allowedAssignees } from './segment-filter';

export interface SqlPredicate {
  /** A boolean SQL expression; `TRUE` when the filters constrain nothing. */
  sql: string;
  params: unknown[];
}

const DATE_COLUMN: Record<(typeof DATE_MEMBERS)[number], string> = {
  createdAfter: 'created_at',
  createdBefore: 'created_at',
  lastUpdatedAfter: 'updated_at',
  lastUpdatedBefore: 'updated_at',
  lastInteractionAfter: 'last_interaction_at',
  lastInteractionBefore: 'last_interaction_at',
};

/**
 * @param alias the mirror table's alias in the caller's query (e.g. `m`)
 * @param firstParam number of the first `$n` placeholder, so callers can put their own first
 */
export function segmentWhere(filters: ResolvedFilters, alias = 'm', firstParam = 1): SqlPredicate {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  const col = (name: string) => `${alias}.${name}`;
  const parts: string[] = [];

  if (filters.tagIds) parts.push(`${col('tag_ids')} && ${p(filters.tagIds)}::text[]`);
  if (filters.stageIds) parts.push(`${col('stage_id')} = ANY(${p(filters.stageIds)}::text[])`);
  const allowed = allowedAssignees(filters);
  if (allowed) {
    const ids = allowed.filter((a): a is string => a !== null);
    const alternatives = ids.length ? [`${col('assignee_id')} = ANY(${p(ids)}::text[])`] : [];
    if (allowed.includes(null)) alternatives.push(`${col('assignee_id')} IS NULL`);
    parts.push(`(${alternatives.join(' OR ')})`);
  }
  for (const member of DATE_MEMBERS) {
    const bound = filters[member];
    if (!bound) continue;
    const op = member.endsWith('After') ? '>=' : '<';
    parts.push(`${col(DATE_COLUMN[member])} ${op} ${p(bound.toISOString())}::timestamptz`);
  }
  if (filters.phoneFilters) {
    parts.push(`EXISTS (SELECT 1 FROM unnest(${p(filters.phoneFilters.map((f) => f.digits))}::text[]) AS pf(digits)
      WHERE starts_with(${col('phone')}, pf.digits))`);
  }
  if (filters.sourceMethods) parts.push(`${col('source_method')} = ANY(${p(filters.sourceMethods)}::text[])`);
  if (filters.status !== undefined) parts.push(`${col('status')} = ${p(filters.status)}`);
  if (filters.isBlocked !== undefined) parts.push(`${col('is_blocked')} = ${p(filters.isBlocked)}`);
  if (filters.countries) parts.push(`${col('country')} = ANY(${p(filters.countries)}::text[])`);
  for (const f of filters.customFieldFilters ?? []) {
    const key = p(f.fieldKey);
    const values = p(f.values);
    // Mirrors customFieldStrings(): a string value, or any string element of an array value.
    parts.push(`(CASE jsonb_typeof(${col('custom_fields')} -> ${key}::text)
      WHEN 'string' THEN (${col('custom_fields')} ->> ${key}::text) = ANY(${values}::text[])
      WHEN 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(${col('custom_fields')} -> ${key}::text) AS cf(v)
        WHERE jsonb_typeof(cf.v) = 'string' AND (cf.v #>> '{}') = ANY(${values}::text[]))
      ELSE FALSE END)`);
  }
  // COALESCE: a NULL column (no lastInteractionAt) means "does not match", also under NOT.
  return { sql: parts.length ? `COALESCE(${parts.join(' AND ')}, FALSE)` : 'TRUE', params };
}
