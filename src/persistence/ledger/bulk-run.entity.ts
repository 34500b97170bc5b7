import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Where a bulk run's contacts came from. */
export type BulkRunSource = 'backfill' | 'list' | 'segment';

/**
 * preparing (a backfill's mirror scan) → pending_confirmation (the preview, nothing runs) →
 * running (confirmed: its runs are being created) | cancelled → done; failed when it cannot go on.
 */
export type BulkRunState = 'preparing' | 'pending_confirmation' | 'running' | 'cancelled' | 'done' | 'failed';

/** What a bulk run will cost before anyone confirms it (src/pipeline/bulk-runs/bulk-run-forecast.ts). */
export interface BulkRunForecast {
  contacts: number;
  /** CRM calls one run makes at most (the actions that call the CRM, assign-first counted). */
  callsPerRun: number;
  calls: number;
  /** At the whole budget (no interactive traffic waiting) and at bulk's guaranteed share. */
  minutesIfIdle: number;
  minutesAtMinShare: number;
}

/**
 * One rule run for many contacts at once, after a preview and an operator's confirmation: a rule's
 * backfill on activation (`backfill: true`), or a manual bulk run for a list of contacts or a
 * segment. Its runs carry the trigger `bulk:<id>`, so confirming twice or resuming after a crash
 * never makes a second run for a contact (UQ_runs_trigger_rule_contact).
 */
@Entity('bulk_runs')
@Check('CHK_bulk_runs_source', `"source" IN ('backfill', 'list', 'segment')`)
@Check(
  'CHK_bulk_runs_state',
  `"state" IN ('preparing', 'pending_confirmation', 'running', 'cancelled', 'done', 'failed')`,
)
@Index('UQ_bulk_runs_backfill_version', ['ruleId', 'ruleVersion'], {
  unique: true,
  where: `source = 'backfill'`,
})
@Index('IDX_bulk_runs_rule_created', ['ruleId', 'createdAt'])
export class BulkRunEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_bulk_runs' })
  id!: string;

  @Column({ name: 'rule_id', type: 'text' })
  ruleId!: string;

  @Column({ name: 'rule_version', type: 'text' })
  ruleVersion!: string;

  @Column({ name: 'rules_commit', type: 'text', nullable: true })
  rulesCommit!: string | null;

  @Column({ type: 'text' })
  source!: BulkRunSource;

  /** The segment's name for `segment`, else null. */
  @Column({ name: 'source_detail', type: 'text', nullable: true })
  sourceDetail!: string | null;

  @Column({ type: 'text', default: 'preparing' })
  state!: BulkRunState;

  /** The contacts that matched at the preview, in the order their runs are created. */
  @Column({ name: 'contact_ids', type: 'text', array: true, default: () => `'{}'` })
  contactIds!: string[];

  @Column({ type: 'jsonb', nullable: true })
  forecast!: BulkRunForecast | null;

  /** Contacts read for the preview (the mirror's, or the list's) and how many of them matched. */
  @Column({ type: 'int', default: 0 })
  evaluated!: number;

  @Column({ name: 'runs_created', type: 'int', default: 0 })
  runsCreated!: number;

  @Column({ name: 'created_by', type: 'text' })
  createdBy!: string;

  @Column({ name: 'decided_by', type: 'text', nullable: true })
  decidedBy!: string | null;

  /** Why it failed, or what a preview could not read. */
  @Column({ type: 'text', nullable: true })
  detail!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
