import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A contact in a scheduled rule's segment as of its last sweep: the base of the entered / left diff. */
@Entity('segment_memberships')
export class SegmentMembershipEntity {
  @PrimaryColumn({ name: 'rule_id', type: 'text', primaryKeyConstraintName: 'PK_segment_memberships' })
  ruleId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'text', primaryKeyConstraintName: 'PK_segment_memberships' })
  contactId!: string;

  @Column({ name: 'entered_at', type: 'timestamptz', default: () => 'now()' })
  enteredAt!: Date;

  @Column({ name: 'entered_sweep_id', type: 'uuid', nullable: true })
  enteredSweepId!: string | null;
}
