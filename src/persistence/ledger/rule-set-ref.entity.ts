import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A rule set and commit that judged events, named by inbox rows instead of repeated on each
 * (`inbox_events.unmatched_set`, migration 1796020000000). Written by the claims, never changed.
 */
@Entity('rule_set_refs')
export class RuleSetRefEntity {
  /** `rule_set_ref(decision)`: a hash of the set and commit, so writers need no look-up. */
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_rule_set_refs' })
  id!: string;

  /** The compiled set's content hash (as runs record it). */
  @Column({ name: 'rule_set_version', type: 'text' })
  ruleSetVersion!: string;

  /** Its deployed commit, or '' when unknown. */
  @Column({ name: 'rules_commit', type: 'text' })
  rulesCommit!: string;
}
