import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { RuleProblem } from '../../../language/rules/format/rule-types';

/** What became of a deployed version: only `activated` is loaded, by every process. */
export type RuleSetVersionStatus = 'activated' | 'refused' | 'rolled-back' | 'superseded' | 'recorded';

/** Where a version came from: a git commit, or the content of a RULES_DIR (its hash is the id). */
export type RuleSetVersionSource = 'git' | 'directory';

/** One deployed rule-set version (issue 31): commit, files, validation report, status. */
@Entity('rule_set_versions')
@Index('UQ_rule_set_versions_commit', ['commit'], { unique: true })
@Index('UQ_rule_set_versions_active', ['status'], { unique: true, where: `status = 'activated'` })
@Index('UQ_rule_set_versions_pinned', ['pinned'], { unique: true, where: `pinned` })
export class RuleSetVersionEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'PK_rule_set_versions' })
  id!: string;

  /** The git commit id, or `dir-<content hash>` for a directory. */
  @Column({ type: 'text' })
  commit!: string;

  @Column({ type: 'text' })
  source!: RuleSetVersionSource;

  @Column({ type: 'text', nullable: true })
  author!: string | null;

  @Column({ type: 'text', nullable: true })
  message!: string | null;

  /** path (relative to the rules root) → text: the rule set as it was, for the run page and diffs. */
  @Column({ type: 'jsonb' })
  files!: Record<string, string>;

  /** The validation report: problems and warnings at file:line:col. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  report!: RuleProblem[];

  @Column({ type: 'text' })
  status!: RuleSetVersionStatus;

  /** The compiled set's content hash (runs record it too); null when refused. */
  @Column({ name: 'rule_set_version', type: 'text', nullable: true })
  ruleSetVersion!: string | null;

  /** Who or what activated it: `webhook`, `interval`, `start-up`, `rollback by …`. */
  @Column({ name: 'activated_by', type: 'text', nullable: true })
  activatedBy!: string | null;

  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true })
  activatedAt!: Date | null;

  /** A pinned version stays active whatever is pushed, until unpinned. */
  @Column({ type: 'boolean', default: false })
  pinned!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
