import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ContactStatus, Tag } from '@crm-rules/crm-contract';

/** The engine's copy of one CRM contact (docs/CRM-API.md §2.1), kept for local segment evaluation. */
@Entity('contact_mirror')
@Index('IDX_contact_mirror_tag_ids', ['tagIds'])
@Index('IDX_contact_mirror_created_at', ['createdAt'])
// A trigram index on an expression (name, phone, email: the console's search); TypeORM cannot
// describe it, so it leaves it alone (migration 1766050000000-AddContactMirrorSearchIndex).
@Index('IDX_contact_mirror_search', { synchronize: false })
export class ContactMirrorEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_contact_mirror' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** Digits only, with the country code. */
  @Column({ type: 'text' })
  phone!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  avatar!: string | null;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  @Column({ type: 'text' })
  status!: ContactStatus;

  @Column({ name: 'is_blocked', type: 'boolean' })
  isBlocked!: boolean;

  @Column({ name: 'source_method', type: 'text' })
  sourceMethod!: string;

  @Column({ name: 'assignee_id', type: 'text', nullable: true })
  assigneeId!: string | null;

  @Column({ name: 'stage_id', type: 'text', nullable: true })
  stageId!: string | null;

  @Column({ name: 'tag_ids', type: 'text', array: true, default: () => "'{}'" })
  tagIds!: string[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  tags!: Tag[];

  @Column({ name: 'custom_fields', type: 'jsonb', default: () => "'{}'" })
  customFields!: Record<string, unknown>;

  /** ISO 3166-1 alpha-2 derived from the phone (libphonenumber-js). */
  @Column({ type: 'text', nullable: true })
  country!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'last_interaction_at', type: 'timestamptz', nullable: true })
  lastInteractionAt!: Date | null;

  /** The contact exactly as the CRM sent it, extra members included. */
  @Column({ type: 'jsonb' })
  raw!: Record<string, unknown>;

  @Column({ name: 'synced_at', type: 'timestamptz', default: () => 'now()' })
  syncedAt!: Date;

  /** The full sync that last saw this contact; rows a complete full sync did not see are gone from the CRM. */
  @Column({ name: 'sync_generation', type: 'int', default: 0 })
  syncGeneration!: number;

  /**
   * The contact before the engine's last write (`raw` then) and the `updatedAt` that write returned:
   * the CRM's webhook for that write compares with the state before it (change operators), though
   * the mirror learned the write first. Null until the engine writes the contact.
   */
  @Column({ name: 'engine_before', type: 'jsonb', nullable: true })
  engineBefore!: Record<string, unknown> | null;

  @Column({ name: 'engine_written_at', type: 'timestamptz', nullable: true })
  engineWrittenAt!: Date | null;
}
