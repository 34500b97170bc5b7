import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { ConditionTrace, RuleAction } from '../../language/rules/format/rule-types';
import type { TimingPlan } from '../../language/rules/gates/run-gates';
import type { TimelineEntry } from './run-timeline-entry';

export type RunStatus =
  | 'not_matched' // evaluated, conditions false: kept for "why did it not fire"
  | 'suppressed' // matched but once/cooldown/loop protection held it back (see `reason`)
  | 'pending'
  | 'running'
  | 'waiting' // a wait step, a closed window or a full limit period: a delayed job wakes it at waiting_until
  | 'cancelled' // ended before its actions: a wait's unless / until, a deleted contact, a window or limit skip (see `reason`)
  | 'succeeded'
  | 'failed'
  | 'dead'
  | 'uncertain'; // an at-most-once write whose outcome is unknown: waits for an operator

/** The gateway priority of a run's CRM calls: interactive (events) or bulk (segment sweeps). */
export type RunPriority = 'interactive' | 'bulk';

/** One evaluation of one rule for one contact on one trigger (event or sweep tick). */
@Entity('runs')
// Its id names its day (src/persistence/partitions/ledger-id.ts; migration 1795990000000).
@Check('CHK_runs_id_day', `trigger_at >= ledger_day_from(id) AND trigger_at < ledger_day_to(id)`)
@Index('UQ_runs_trigger_rule_contact', ['triggerKey', 'ruleId', 'contactId', 'triggerAt'], { unique: true })
@Index('IDX_runs_contact_created', ['contactId', 'createdAt'])
@Index('IDX_runs_rule_created', ['ruleId', 'createdAt'])
@Index('IDX_runs_unfinished', ['updatedAt'], { where: `status IN ('pending', 'running')` })
@Index('IDX_runs_created', ['createdAt'])
@Index('IDX_runs_waiting', ['contactId', 'waitingUntil'], { where: `status = 'waiting'` })
@Index('IDX_runs_contact_unfinished', ['contactId', 'createdAt'], {
  where: `status IN ('pending', 'running', 'waiting')`,
})
@Index('IDX_runs_limited_rule_updated', ['ruleId', 'updatedAt'], { where: `timing ? 'limit'` })
// The messaging policy's count of a contact's messages walks only its runs that acted.
@Index('IDX_runs_goal_enrolled', ['contactId', 'goalUntil'], {
  where: `goal_until IS NOT NULL AND goal_reached_at IS NULL`,
})
@Index('IDX_runs_contact_acted', ['contactId'], { where: `status NOT IN ('not_matched', 'suppressed')` })
export class RunEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_runs' })
  id!: string;

  /**
   * The trigger's time, the partition key (daily partitions): its event's `event_at`, a sweep's
   * tick, a bulk run's creation. A trigger retried on another day carries the same time, so the
   * unique key (trigger, rule, contact, trigger_at) still refuses its second run.
   */
  @PrimaryColumn({
    name: 'trigger_at',
    type: 'timestamptz',
    default: () => 'now()',
    primaryKeyConstraintName: 'PK_runs',
  })
  triggerAt!: Date;

  /** `event:<inbox id>` or `sweep:<rule>:<tick>`. */
  @Column({ name: 'trigger_key', type: 'text' })
  triggerKey!: string;

  /** The event that triggered it; no foreign key: a run's day may outlive its event's. */
  @Column({ name: 'inbox_event_id', type: 'uuid', nullable: true })
  inboxEventId!: string | null;

  @Column({ name: 'rule_id', type: 'text' })
  ruleId!: string;

  @Column({ name: 'rule_version', type: 'text' })
  ruleVersion!: string;

  @Column({ name: 'rule_set_version', type: 'text' })
  ruleSetVersion!: string;

  /** The deployed version the set came from (a git commit, or `dir-<hash>`); null before issue 31. */
  @Column({ name: 'rules_commit', type: 'text', nullable: true })
  rulesCommit!: string | null;

  @Column({ name: 'contact_id', type: 'text' })
  contactId!: string;

  @Column({ type: 'text' })
  status!: RunStatus;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ type: 'text', default: 'live' })
  mode!: 'live' | 'shadow';

  /** Set on insert by whoever creates the run: events interactive, sweeps bulk. */
  @Column({ type: 'text' })
  priority!: RunPriority;

  @Column({ type: 'jsonb' })
  trace!: ConditionTrace[];

  @Column({ type: 'jsonb' })
  actions!: RuleAction[];

  /** Contact state the rule was evaluated against (the first guard input). */
  @Column({ name: 'contact_snapshot', type: 'jsonb', nullable: true })
  contactSnapshot!: Record<string, unknown> | null;

  @Column({ name: 'correlation_id', type: 'text', nullable: true })
  correlationId!: string | null;

  /** The rule's waits, windows and limit as they were when the run started (null: none). */
  @Column({ type: 'jsonb', nullable: true })
  timing!: TimingPlan | null;

  @Column({ name: 'waiting_until', type: 'timestamptz', nullable: true })
  waitingUntil!: Date | null;

  /** What happened to the run over time: waiting until T, resumed, cancelled (why), limit slot taken. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  timeline!: TimelineEntry[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Insertion order: runs of one event share created_at and are inserted in rule priority order. */
  @Column({
    type: 'bigint',
    generated: 'identity',
    generatedIdentity: 'ALWAYS',
    insert: false,
    update: false,
  })
  seq!: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  /** A succeeded run of a rule with a goal: until when a later event meeting the goal converts it. */
  @Column({ name: 'goal_until', type: 'timestamptz', nullable: true })
  goalUntil!: Date | null;

  /** When a later event met the goal after the run succeeded (a conversion; the run stays succeeded). */
  @Column({ name: 'goal_reached_at', type: 'timestamptz', nullable: true })
  goalReachedAt!: Date | null;
}
