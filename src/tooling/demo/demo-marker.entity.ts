import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The embedded demo's mark on a database it created: one row (id 1), written by the first demo
 * start on an empty database. Only a marked database is emptied by the demo (demo-database.ts).
 */
@Entity('demo_marker')
export class DemoMarkerEntity {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'PK_demo_marker' })
  id!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
