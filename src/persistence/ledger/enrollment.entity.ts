import { Column, Entity, PrimaryColumn } from 'typeorm';

/** once / cooldown bookkeeping per (rule, contact); the primary key makes it safe under concurrency. */
@Entity('enrollments')
export class EnrollmentEntity {
  @PrimaryColumn({ name: 'rule_id', type: 'text' })
  ruleId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'text' })
  contactId!: string;

  @Column({ name: 'last_run_id', type: 'uuid' })
  lastRunId!: string;

  @Column({ name: 'last_fired_at', type: 'timestamptz' })
  lastFiredAt!: Date;

  @Column({ name: 'fire_count', type: 'int', default: 1 })
  fireCount!: number;
}
