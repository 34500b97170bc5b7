import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * What the engine saw or did for a contact that no other table keeps: duplicate deliveries,
 * mirror updates, CRM calls with their budget waits and answers, segment leaves without a run.
 * The contact timeline merges it with inbox_events, runs and action_results. Partitioned by day of
 * `at` (migration 1795884123819-PartitionContactJournalByDay): `at` is part of every unique key.
 */
@Entity('contact_journal')
@Index('IDX_contact_journal_contact_at', ['contactId', 'at'])
@Index('IDX_contact_journal_at', ['at'])
// One mirror.updated entry per contact version (an expression index TypeORM cannot describe:
// migration 1766050000001-AddJournalMirrorVersionUnique).
@Index('UQ_contact_journal_mirror_version', { synchronize: false })
export class ContactJournalEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'PK_contact_journal' })
  id!: string;

  @Column({ name: 'contact_id', type: 'text' })
  contactId!: string;

  @PrimaryColumn({
    type: 'timestamptz',
    default: () => 'now()',
    primaryKeyConstraintName: 'PK_contact_journal',
  })
  at!: Date;

  /** delivery.duplicate, mirror.updated, mirror.deleted, crm.call, segment.left */
  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  detail!: Record<string, unknown>;
}
