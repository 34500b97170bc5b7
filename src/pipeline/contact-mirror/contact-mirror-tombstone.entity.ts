import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A contact the CRM deleted: a list page fetched before the deletion must not bring it back. */
@Entity('contact_mirror_tombstones')
export class ContactMirrorTombstoneEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_contact_mirror_tombstones' })
  id!: string;

  @Column({ name: 'deleted_at', type: 'timestamptz', default: () => 'now()' })
  deletedAt!: Date;
}
