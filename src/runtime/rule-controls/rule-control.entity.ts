import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An operator's switch on one rule, effective on every process (see rule-controls.service.ts). */
@Entity('rule_controls')
export class RuleControlEntity {
  @PrimaryColumn({ name: 'rule_id', type: 'text', primaryKeyConstraintName: 'PK_rule_controls' })
  ruleId!: string;

  /** A paused rule still evaluates, but records `paused` instead of acting. */
  @Column({ type: 'boolean', default: false })
  paused!: boolean;

  /** Forced shadow: runs are recorded, actions skipped, whatever the file says. */
  @Column({ type: 'boolean', default: false })
  shadow!: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'updated_by', type: 'text' })
  updatedBy!: string;
}
