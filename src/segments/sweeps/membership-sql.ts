// Every statement on segment_memberships: the membership diff's reads over the mirror with the
// segment's WHERE from segment-sql.ts, and its adds and removals. Batches use keyset paging on the contact id, so a retried sweep picks up
// where the committed batches stopped. Pure: text and parameters only.
import type { ResolvedFilters } from '../../language/segment-filters/resolved-filters';
import { segmentWhere } from '../../language/segment-filters/segment-sql';
import { mirrorColumns } from '../../contacts/mirror-sql';

export interface Query {
  sql: string;
  params: unknown[];
}

/** evaluated (mirror size), members, entering (members without a membership row): $1 = rule. */
export function segmentCountsQuery(ruleId: string, filters: ResolvedFilters): Query {
  const where = segmentWhere(filters, 'm', 2);
  return {
    sql: `SELECT count(*)::int AS evaluated,
                 count(*) FILTER (WHERE ${where.sql})::int AS members,
                 count(*) FILTER (WHERE ${where.sql} AND s.contact_id IS NULL)::int AS entering
            FROM contact_mirror m
            LEFT JOIN segment_memberships s ON s.rule_id = $1 AND s.contact_id = m.id`,
    params: [ruleId, ...where.params],
  };
}

/** leaving: stored members the mirror still has but the segment no longer matches; gone: deleted contacts. */
export function leavingCountsQuery(ruleId: string, filters: ResolvedFilters): Query {
  const where = segmentWhere(filters, 'm', 2);
  return {
    sql: `SELECT count(m.id)::int AS leaving, (count(*) - count(m.id))::int AS gone
            FROM segment_memberships s
            LEFT JOIN contact_mirror m ON m.id = s.contact_id
           WHERE s.rule_id = $1 AND NOT (m.id IS NOT NULL AND ${where.sql})`,
    params: [ruleId, ...where.params],
  };
}

/**
 * Members after the id `after`, with `entering` = no membership yet. onlyEntering restricts to
 * those ($1 rule, $2 after, $3 limit).
 */
export function membersBatchQuery(
  ruleId: string,
  filters: ResolvedFilters,
  after: string,
  limit: number,
  onlyEntering: boolean,
): Query {
  const where = segmentWhere(filters, 'm', 4);
  return {
    sql: `SELECT ${mirrorColumns('m')}, (s.contact_id IS NULL) AS entering
            FROM contact_mirror m
            LEFT JOIN segment_memberships s ON s.rule_id = $1 AND s.contact_id = m.id
           WHERE m.id > $2 AND ${where.sql}${onlyEntering ? ' AND s.contact_id IS NULL' : ''}
           ORDER BY m.id
           LIMIT $3`,
    params: [ruleId, after, limit, ...where.params],
  };
}

/** Stored members that left (mirror row present, `gone` false) or whose contact is gone ($1 rule, $2 after, $3 limit). */
export function leftBatchQuery(
  ruleId: string,
  filters: ResolvedFilters,
  after: string,
  limit: number,
): Query {
  const where = segmentWhere(filters, 'm', 4);
  return {
    sql: `SELECT s.contact_id, (m.id IS NULL) AS gone, ${mirrorColumns('m')}
            FROM segment_memberships s
            LEFT JOIN contact_mirror m ON m.id = s.contact_id
           WHERE s.rule_id = $1 AND s.contact_id > $2 AND NOT (m.id IS NOT NULL AND ${where.sql})
           ORDER BY s.contact_id
           LIMIT $3`,
    params: [ruleId, after, limit, ...where.params],
  };
}

/** Memberships of contacts that left or are gone, removed: $1 = rule, $2 = contact ids. */
export function removeMembersQuery(ruleId: string, contactIds: string[]): Query {
  return {
    sql: `DELETE FROM segment_memberships WHERE rule_id = $1 AND contact_id = ANY($2::text[])`,
    params: [ruleId, contactIds],
  };
}

/** Memberships of entering contacts; RETURNING only those new (a retried batch adds none twice). */
export function addMembersQuery(ruleId: string, contactIds: string[], sweepId: string): Query {
  return {
    sql: `INSERT INTO segment_memberships (rule_id, contact_id, entered_sweep_id)
          SELECT $1, unnest($2::text[]), $3 ON CONFLICT (rule_id, contact_id) DO NOTHING RETURNING contact_id`,
    params: [ruleId, contactIds, sweepId],
  };
}
