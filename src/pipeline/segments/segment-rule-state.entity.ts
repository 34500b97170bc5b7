import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Per scheduled rule: its schedule, the last tick enqueued (missed-tick detection) and CRM sync. */
@Entity('segment_rule_state')
export class SegmentRuleStateEntity {
  @PrimaryColumn({ name: 'rule_id', type: 'text', primaryKeyConstraintName: 'PK_segment_rule_state' })
  ruleId!: string;

  @Column({ type: 'text' })
  cron!: string;

  @Column({ type: 'text', nullable: true })
  timezone!: string | null;

  @Column({ name: 'registered_at', type: 'timestamptz', default: () => 'now()' })
  registeredAt!: Date;

  @Column({ name: 'last_tick_at', type: 'timestamptz', nullable: true })
  lastTickAt!: Date | null;

  /** The name POST /v1/segments was called with (sync: true), once per name. */
  @Column({ name: 'synced_segment_name', type: 'text', nullable: true })
  syncedSegmentName!: string | null;

  @Column({ name: 'synced_segment_at', type: 'timestamptz', nullable: true })
  syncedSegmentAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
