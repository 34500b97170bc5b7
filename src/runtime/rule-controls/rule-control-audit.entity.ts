import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type RuleControlChange = 'pause' | 'resume' | 'shadow-on' | 'shadow-off';

/** Who changed which rule control when (append-only). */
@Entity('rule_control_audit')
@Index('IDX_rule_control_audit_at', ['at'])
export class RuleControlAuditEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'PK_rule_control_audit' })
  id!: string;

  @Column({ name: 'rule_id', type: 'text' })
  ruleId!: string;

  @Column({ type: 'text' })
  change!: RuleControlChange;

  /** The console session (short id) and client address; never a token. */
  @Column({ type: 'text' })
  actor!: string;

  @Column({ type: 'text', nullable: true })
  note!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date;
}
