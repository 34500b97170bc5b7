import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type SweepStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'skipped';
export type SweepPhase = 'mirror' | 'evaluate' | 'left' | 'members' | 'done';

/** One sweep of one rule for one tick, with its progress (GET /admin/sweeps). */
@Entity('segment_sweeps')
@Index('UQ_segment_sweeps_rule_tick', ['ruleId', 'tickAt'], { unique: true })
@Index('IDX_segment_sweeps_ended_queued', ['queuedAt'], {
  where: `status IN ('succeeded', 'failed', 'skipped')`,
})
export class SegmentSweepEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_segment_sweeps' })
  id!: string;

  @Column({ name: 'rule_id', type: 'text' })
  ruleId!: string;

  @Column({ name: 'tick_at', type: 'timestamptz' })
  tickAt!: Date;

  /** cron, missed (caught up on start) or manual (admin). */
  @Column({ type: 'text' })
  reason!: string;

  @Column({ type: 'text', default: 'queued' })
  status!: SweepStatus;

  /** Why it was skipped or failed. */
  @Column({ type: 'text', nullable: true })
  detail!: string | null;

  @Column({ type: 'text', nullable: true })
  phase!: SweepPhase | null;

  @Column({ name: 'pages_done', type: 'int', default: 0 })
  pagesDone!: number;

  @Column({ name: 'pages_total', type: 'int', nullable: true })
  pagesTotal!: number | null;

  @Column({ name: 'contacts_evaluated', type: 'int', default: 0 })
  contactsEvaluated!: number;

  @Column({ type: 'int', nullable: true })
  members!: number | null;

  @Column({ type: 'int', default: 0 })
  entered!: number;

  @Column({ type: 'int', default: 0 })
  left!: number;

  @Column({ name: 'actions_queued', type: 'int', default: 0 })
  actionsQueued!: number;

  /** CRM calls still ahead of this sweep (list pages, then the queued actions). */
  @Column({ name: 'calls_remaining', type: 'int', nullable: true })
  callsRemaining!: number | null;

  @Column({ name: 'eta_ms', type: 'bigint', nullable: true })
  etaMs!: string | null;

  /** Time the SQL evaluation of the segment took. */
  @Column({ name: 'evaluation_ms', type: 'int', nullable: true })
  evaluationMs!: number | null;

  @Column({ name: 'queued_at', type: 'timestamptz', default: () => 'now()' })
  queuedAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
