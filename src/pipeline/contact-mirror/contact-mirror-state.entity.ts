import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row (`contacts`): where the full sync stands, the incremental watermark, and freshness. */
@Entity('contact_mirror_state')
export class ContactMirrorStateEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_contact_mirror_state' })
  id!: string;

  /** Next page of the full sync in progress; null when none is in progress (the resumable cursor). */
  @Column({ name: 'full_sync_page', type: 'int', nullable: true })
  fullSyncPage!: number | null;

  @Column({ name: 'full_sync_generation', type: 'int', default: 0 })
  fullSyncGeneration!: number;

  @Column({ name: 'full_sync_started_at', type: 'timestamptz', nullable: true })
  fullSyncStartedAt!: Date | null;

  /** `total` of the last page read by the full sync in progress. */
  @Column({ name: 'full_sync_total', type: 'int', nullable: true })
  fullSyncTotal!: number | null;

  @Column({ name: 'full_sync_newest_created_at', type: 'timestamptz', nullable: true })
  fullSyncNewestCreatedAt!: Date | null;

  @Column({ name: 'last_full_sync_at', type: 'timestamptz', nullable: true })
  lastFullSyncAt!: Date | null;

  /** Newest createdAt the mirror has seen in a list: incremental refreshes stop below it. */
  @Column({ name: 'watermark_created_at', type: 'timestamptz', nullable: true })
  watermarkCreatedAt!: Date | null;

  @Column({ name: 'last_incremental_at', type: 'timestamptz', nullable: true })
  lastIncrementalAt!: Date | null;

  @Column({ name: 'last_event_at', type: 'timestamptz', nullable: true })
  lastEventAt!: Date | null;

  /** GET /v1/contacts calls made by the mirror since the database was created. */
  @Column({ name: 'list_calls', type: 'bigint', default: 0 })
  listCalls!: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
