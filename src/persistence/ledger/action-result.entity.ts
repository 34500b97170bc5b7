import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { RunEntity } from './run.entity';
import type { RuleAction } from '../../language/rules/format/rule-types';
import type { ActionStatus, ActionTarget } from '../../language/catalogue/action-result-terms';

/** One action of one run. (run, index) is unique: a retried job resumes after the last finished one. */
@Entity('action_results')
// Its id names its day (src/persistence/partitions/ledger-id.ts; migration 1795990000000).
@Check(
  'CHK_action_results_id_day',
  `run_trigger_at >= ledger_day_from(id) AND run_trigger_at < ledger_day_to(id)`,
)
@Index('UQ_action_results_run_index', ['runId', 'actionIndex', 'runTriggerAt'], { unique: true })
@Index('IDX_action_results_status', ['status'])
// Partial, on the customer messages not sent (a reason list TypeORM would rewrite): migration
// 1766050000002-AddActionResultsMessageSkipsIndex.
@Index('IDX_action_results_message_skips', { synchronize: false })
export class ActionResultEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_action_results' })
  id!: string;

  @Column({ name: 'run_id', type: 'uuid' })
  runId!: string;

  /** Its run's trigger_at, the partition key: a run and its results share a day and go together. */
  @PrimaryColumn({
    name: 'run_trigger_at',
    type: 'timestamptz',
    primaryKeyConstraintName: 'PK_action_results',
  })
  runTriggerAt!: Date;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'run_id', referencedColumnName: 'id', foreignKeyConstraintName: 'FK_action_results_run' },
    {
      name: 'run_trigger_at',
      referencedColumnName: 'triggerAt',
      foreignKeyConstraintName: 'FK_action_results_run',
    },
  ])
  run?: RunEntity;

  @Column({ name: 'action_index', type: 'int' })
  actionIndex!: number;

  @Column({ type: 'jsonb' })
  action!: RuleAction;

  @Column({ type: 'text', default: 'pending' })
  status!: ActionStatus;

  /** Why it was skipped (needs_assignee, contact_blocked, no_change, shadow_mode, ...) or failed. */
  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'error_code', type: 'text', nullable: true })
  errorCode!: string | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage!: string | null;

  @Column({ name: 'http_status', type: 'int', nullable: true })
  httpStatus!: number | null;

  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId!: string | null;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  target!: ActionTarget | null;

  @Column({ name: 'duration_ms', type: 'int', nullable: true })
  durationMs!: number | null;

  /** http-request: the values `save:` read from the answer, for later steps of the run. */
  @Column({ type: 'jsonb', nullable: true })
  saved!: Record<string, unknown> | null;
}
