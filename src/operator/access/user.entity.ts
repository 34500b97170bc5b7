import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '../roles/roles';

/**
 * A person who uses the console or the admin API: a local account (passwordHash) or an OpenID
 * Connect user (oidcSubject), with one role. Disabled users keep their row (audit rows name them)
 * but no login, session or token of theirs is accepted.
 */
@Entity('users')
@Check('CHK_users_role', `"role" IN ('viewer', 'operator', 'admin')`)
@Index('UQ_users_email', ['email'], { unique: true })
@Index('UQ_users_oidc_subject', ['oidcSubject'], { unique: true })
@Index('UQ_users_api_token_hash', ['apiTokenHash'], { unique: true })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_users' })
  id!: string;

  /** Lower-cased. */
  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'display_name', type: 'text' })
  displayName!: string;

  @Column({ type: 'text' })
  role!: Role;

  /** password.ts's `scrypt$N$r$p$salt$key`; NULL for an OIDC user. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  /** `<issuer> <sub>`; NULL for a local account. */
  @Column({ name: 'oidc_subject', type: 'text', nullable: true })
  oidcSubject!: string | null;

  /** SHA-256 (hex) of the user's API token (api-token.ts); the token itself is shown once. */
  @Column({ name: 'api_token_hash', type: 'text', nullable: true })
  apiTokenHash!: string | null;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt!: Date | null;
}
