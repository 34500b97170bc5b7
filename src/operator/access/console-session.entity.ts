import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * One logged-in console session (see console-session.ts for what the cookie carries). The row is
 * the session: no row, no access, whatever the browser still holds.
 */
@Entity('console_sessions')
@Index('IDX_console_sessions_last_seen_at', ['lastSeenAt'])
@Index('IDX_console_sessions_created_at', ['createdAt'])
export class ConsoleSessionEntity {
  /** SHA-256 (hex) of the cookie's random id. */
  @PrimaryColumn({ name: 'id_hash', type: 'text', primaryKeyConstraintName: 'PK_console_sessions' })
  idHash!: string;

  /** tokenFingerprint(ADMIN_TOKEN) at login: a session of another token is refused. */
  @Column({ name: 'token_fingerprint', type: 'text' })
  tokenFingerprint!: string;

  /** The user logged in; NULL for a login with ADMIN_TOKEN (the bootstrap credential, an admin). */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  /** Deleting a user ends their sessions (disabling keeps the row and refuses them instead). */
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_console_sessions_user' })
  user?: UserEntity;

  @Column({ name: 'client_address', type: 'text', nullable: true })
  clientAddress!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt!: Date;
}
