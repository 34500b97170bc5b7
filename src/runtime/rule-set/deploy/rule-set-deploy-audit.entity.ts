import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type DeployAction =
  'activate' | 'refuse' | 'rollback' | 'pin' | 'unpin' | 'fetch-failed' | 'fetch-recovered';

/** Who did what to the deployed rule set, when (append-only). */
@Entity('rule_set_deploy_audit')
@Index('IDX_rule_set_deploy_audit_at', ['at'])
export class RuleSetDeployAuditEntity {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_rule_set_deploy_audit',
  })
  id!: string;

  @Column({ type: 'text' })
  action!: DeployAction;

  @Column({ type: 'text', nullable: true })
  commit!: string | null;

  /** `webhook`, `interval`, `start-up`, or the operator (never a token). */
  @Column({ type: 'text' })
  actor!: string;

  @Column({ type: 'text', nullable: true })
  note!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date;
}
