// Every statement on `segment_memberships`: the membership diff's reads over the mirror with the
// segment's WHERE (compiled by language/segment-filters/segment-sql.ts, a fragment, never a
// statement), and its adds and removals. Batches use keyset paging on the contact id, so a retried
// sweep picks up where the committed batches stopped.
import { mirrorColumns, type MirrorRow } from '../../contact-mirror/contact-mirror.repository';
import type { ResolvedFilters } from '../../../language/segment-filters/resolved-filters';
import { segmentWhere } from '../../../language/segment-filters/segment-sql';
import type { Queryable } from '../../../persistence/sql/queryable';
import type { SnakeRow } from '../../../persistence/sql/snake-row';
import type { SegmentMembershipEntity } from '../segment-membership.entity';

/** A segment_memberships row as `SELECT *` returns it. */
export type SegmentMembershipRow = SnakeRow<SegmentMembershipEntity>;

/** A member of the segment; `entering`: it has no membership row yet. */
export type MemberBatchRow = MirrorRow & { entering: boolean };

/** A stored member that left; `gone`: its contact has no mirror row (the mirror's columns are null). */
export type LeftBatchRow = MirrorRow & Pick<SegmentMembershipRow, 'contact_id'> & { gone: boolean };

export interface SegmentCounts {
  evaluated: number;
  members: number;
  entering: number;
  leaving: number;
  gone: number;
}

export class SegmentMembershipsRepository {
  constructor(private readonly db: Queryable) {}

  /** The same repository over a transaction or a dedicated connection. */
  in(db: Queryable): SegmentMembershipsRepository {
    return new SegmentMembershipsRepository(db);
  }

  /** Mirror size, members, entering, leaving and gone contacts of a segment: two reads side by side. */
  async counts(ruleId: string, filters: ResolvedFilters): Promise<SegmentCounts> {
    const [[counts], [left]] = await Promise.all([
      this.memberCounts(ruleId, filters),
      this.leavingCounts(ruleId, filters),
    ]);
    const { evaluated, members, entering } = counts;
    return { evaluated, members, entering, leaving: left.leaving, gone: left.gone };
  }

  /** evaluated (mirror size), members, entering (members without a membership row): $1 = rule. */
  private memberCounts(
    ruleId: string,
    filters: ResolvedFilters,
  ): Promise<Pick<SegmentCounts, 'evaluated' | 'members' | 'entering'>[]> {
    const where = segmentWhere(filters, 'm', 2);
    return this.db.query(
      `SELECT count(*)::int AS evaluated,
                 count(*) FILTER (WHERE ${where.sql})::int AS members,
                 count(*) FILTER (WHERE ${where.sql} AND s.contact_id IS NULL)::int AS entering
            FROM contact_mirror m
            LEFT JOIN segment_memberships s ON s.rule_id = $1 AND s.contact_id = m.id`,
      [ruleId, ...where.params],
    );
  }

  /** leaving: stored members the mirror still has but the segment no longer matches; gone: deleted contacts. */
  private leavingCounts(
    ruleId: string,
    filters: ResolvedFilters,
  ): Promise<Pick<SegmentCounts, 'leaving' | 'gone'>[]> {
    const where = segmentWhere(filters, 'm', 2);
    return this.db.query(
      `SELECT count(m.id)::int AS leaving, (count(*) - count(m.id))::int AS gone
            FROM segment_memberships s
            LEFT JOIN contact_mirror m ON m.id = s.contact_id
           WHERE s.rule_id = $1 AND NOT (m.id IS NOT NULL AND ${where.sql})`,
      [ruleId, ...where.params],
    );
  }

  /**
   * Members after the id `after`, with `entering` = no membership yet. onlyEntering restricts to
   * those ($1 rule, $2 after, $3 limit).
   */
  membersBatch(
    ruleId: string,
    filters: ResolvedFilters,
    after: string,
    limit: number,
    onlyEntering: boolean,
  ): Promise<MemberBatchRow[]> {
    const where = segmentWhere(filters, 'm', 4);
    return this.db.query(
      `SELECT ${mirrorColumns('m')}, (s.contact_id IS NULL) AS entering
            FROM contact_mirror m
            LEFT JOIN segment_memberships s ON s.rule_id = $1 AND s.contact_id = m.id
           WHERE m.id > $2 AND ${where.sql}${onlyEntering ? ' AND s.contact_id IS NULL' : ''}
           ORDER BY m.id
           LIMIT $3`,
      [ruleId, after, limit, ...where.params],
    );
  }

  /** The segment's members as its last sweep stored them, by id (a bulk run for a segment). */
  async memberIds(ruleId: string, limit: number): Promise<string[]> {
    const rows: { contact_id: string }[] = await this.db.query(
      `SELECT contact_id FROM segment_memberships WHERE rule_id = $1 ORDER BY contact_id LIMIT $2`,
      [ruleId, limit],
    );
    return rows.map((r) => r.contact_id);
  }

  /** Stored members that left (mirror row present, `gone` false) or whose contact is gone ($1 rule, $2 after, $3 limit). */
  leftBatch(ruleId: string, filters: ResolvedFilters, after: string, limit: number): Promise<LeftBatchRow[]> {
    const where = segmentWhere(filters, 'm', 4);
    return this.db.query(
      `SELECT s.contact_id, (m.id IS NULL) AS gone, ${mirrorColumns('m')}
            FROM segment_memberships s
            LEFT JOIN contact_mirror m ON m.id = s.contact_id
           WHERE s.rule_id = $1 AND s.contact_id > $2 AND NOT (m.id IS NOT NULL AND ${where.sql})
           ORDER BY s.contact_id
           LIMIT $3`,
      [ruleId, after, limit, ...where.params],
    );
  }

  /** Memberships of contacts that left or are gone, removed. */
  async remove(ruleId: string, contactIds: string[]): Promise<void> {
    await this.db.query(
      `DELETE FROM segment_memberships WHERE rule_id = $1 AND contact_id = ANY($2::text[])`,
      [ruleId, contactIds],
    );
  }

  /** Memberships of entering contacts; answers only the ids that are new (a retried batch adds none twice). */
  async add(ruleId: string, contactIds: string[], sweepId: string): Promise<string[]> {
    const inserted: Pick<SegmentMembershipRow, 'contact_id'>[] = await this.db.query(
      `INSERT INTO segment_memberships (rule_id, contact_id, entered_sweep_id)
          SELECT $1, unnest($2::text[]), $3 ON CONFLICT (rule_id, contact_id) DO NOTHING RETURNING contact_id`,
      [ruleId, contactIds, sweepId],
    );
    return inserted.map((r) => r.contact_id);
  }
}
