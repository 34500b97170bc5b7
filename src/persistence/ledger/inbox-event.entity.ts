import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { PreviousState } from '../../language/rules/format/rule-types';

/**
 * A stored delivery: the CRM's event envelope (the intake refuses a body without a string `type`),
 * or a custom source's body under `data` with the id and type given it (custom-delivery.ts). `data`
 * is typed as the readers take it; the intake does not check it.
 */
export interface InboxPayload {
  id?: string;
  type: string;
  createdAt?: string;
  data: Record<string, unknown>;
}

export type InboxStatus = 'pending' | 'processed' | 'failed';

/**
 * The decision on an event no rule matched, kept on its row instead of one `not_matched` run per
 * listening rule: the rule set that judged it (`set`, and its deployed commit when known) and how
 * many of its rules listened (`rules`). Which rules and why is rebuilt on demand (GET
 * /admin/events/:id/explain) from the stored event, its previous contact and that rule set.
 */
export interface UnmatchedDecision {
  set: string;
  commit?: string;
  rules: number;
}

/**
 * How a processed event ended when it is worth telling: `contact_gone` (the CRM no longer has the
 * contact: nothing to match), `mirror_skipped` (the payload could not update the contact mirror, see
 * `last_error`; the rules were still evaluated). Null: processed the ordinary way.
 */
export type InboxOutcome = 'contact_gone' | 'mirror_skipped' | 'contact_not_found';

/**
 * Every accepted webhook delivery, committed before the 2xx. `event_key` carries deduplication, with
 * `event_at`, the partition key (daily partitions: migration 1795990000000-PartitionLedgerByDay).
 */
@Entity('inbox_events')
// Its id names its day (src/persistence/partitions/ledger-id.ts; migration 1795990000000).
@Check('CHK_inbox_events_id_day', `event_at >= ledger_day_from(id) AND event_at < ledger_day_to(id)`)
@Check('CHK_inbox_events_payload_kept', `payload IS NOT NULL OR payload_packed IS NOT NULL`)
@Index('UQ_inbox_events_event_key', ['eventKey', 'eventAt'], { unique: true })
@Index('IDX_inbox_events_pending', ['receivedAt'], { where: `status = 'pending'` })
@Index('IDX_inbox_events_failed', ['receivedAt'], { where: `status = 'failed'` })
@Index('IDX_inbox_events_processed', ['receivedAt'], { where: `status = 'processed'` })
@Index('IDX_inbox_events_contact_not_found', ['receivedAt'], { where: `outcome = 'contact_not_found'` })
export class InboxEventEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_inbox_events' })
  id!: string;

  /**
   * The event's time: the signed body's `createdAt` when it holds one (a resend is the same body,
   * so the same day and the same key), else its arrival (src/pipeline/intake/inbox-payload.ts).
   */
  @PrimaryColumn({
    name: 'event_at',
    type: 'timestamptz',
    default: () => 'now()',
    primaryKeyConstraintName: 'PK_inbox_events',
  })
  eventAt!: Date;

  /** The CRM event id, or `sha256:<body hash>` when the payload has none. */
  @Column({ name: 'event_key', type: 'text' })
  eventKey!: string;

  @Column({ type: 'text' })
  type!: string;

  /**
   * The delivery as JSON. NULL once an event no rule matched is processed: then `payloadPacked`
   * keeps it (src/persistence/ledger/packed-payload.ts); the repositories hand out either as JSON.
   */
  @Column({ type: 'jsonb', nullable: true })
  payload!: InboxPayload;

  /** The payload deflated (packed-payload.ts), for a processed event no rule matched; else NULL. */
  @Column({ name: 'payload_packed', type: 'bytea', nullable: true })
  payloadPacked!: Buffer | null;

  /** The delivery's exact text when `payload` had to differ from it (a \u0000, shown as U+FFFD). */
  @Column({ name: 'raw_body', type: 'text', nullable: true })
  rawBody!: string | null;

  /** The contact before this event, when a change operator needed it (src/pipeline/contact-mirror/mirror-sql.ts). */
  @Column({ name: 'previous_contact', type: 'jsonb', nullable: true })
  previousContact!: PreviousState | null;

  /** `previous_contact` packed with the payload (packed-payload.ts), then NULL there; else NULL. */
  @Column({ name: 'previous_packed', type: 'bytea', nullable: true })
  previousPacked!: Buffer | null;

  /** The intake's group commit that stored it, when that was enqueued as one job (eventsBatchJobId). */
  @Column({ name: 'batch_key', type: 'uuid', nullable: true })
  batchKey!: string | null;

  @Column({ type: 'text', default: 'pending' })
  status!: InboxStatus;

  @Column({ name: 'contact_id', type: 'text', nullable: true })
  contactId!: string | null;

  /** Failed attempts at processing it; at EVENT_MAX_ATTEMPTS (or on a permanent error) it ends `failed`. */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** The last problem met: the error of a failed attempt, or why the mirror skipped the payload. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ type: 'text', nullable: true })
  outcome!: InboxOutcome | null;

  /**
   * The decision of its rules that did not match (no runs rows for them), as rows processed before
   * migration 1796020000000 keep it; later rows keep it as `unmatchedSet` and `unmatchedRules`.
   * Read both through `inbox_decision` (INBOX_DECISION, inbox-event-views.repository.ts).
   */
  @Column({ type: 'jsonb', nullable: true })
  unmatched!: UnmatchedDecision | null;

  /** The decision's rule set and commit: a `rule_set_refs` row (rule-set-ref.entity.ts). */
  @Column({ name: 'unmatched_set', type: 'bigint', nullable: true })
  unmatchedSet!: string | null;

  /** The decision's number of rules that listened and did not match. */
  @Column({ name: 'unmatched_rules', type: 'int', nullable: true })
  unmatchedRules!: number | null;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt!: Date | null;
}
