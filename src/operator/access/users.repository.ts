// Every query on users. Emails are kept lower-cased; a disabled user is found by no lookup that
// grants access (byLogin, byApiTokenHash, active), only by the listing.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Role } from '../roles/roles';
import { returnedRows } from '../../persistence/sql/returned-rows';

export interface User {
  id: string;
  email: string;
  displayName: string;
  role: Role;
  kind: 'local' | 'oidc';
  hasApiToken: boolean;
  disabled: boolean;
}

const COLUMNS = `id, email, display_name AS "displayName", role,
  CASE WHEN oidc_subject IS NULL THEN 'local' ELSE 'oidc' END AS kind,
  api_token_hash IS NOT NULL AS "hasApiToken", disabled_at IS NOT NULL AS disabled`;

@Injectable()
export class UsersRepository {
  constructor(private readonly db: DataSource) {}

  async list(): Promise<User[]> {
    return this.db.query(`SELECT ${COLUMNS} FROM users ORDER BY email`);
  }

  async active(id: string): Promise<User | undefined> {
    const rows: User[] = await this.db.query(
      `SELECT ${COLUMNS} FROM users WHERE id = $1 AND disabled_at IS NULL`,
      [id],
    );
    return rows[0];
  }

  /** A local account by email, with its hash (for the login form only). */
  async localLogin(email: string): Promise<(User & { passwordHash: string }) | undefined> {
    const rows: (User & { passwordHash: string })[] = await this.db.query(
      `SELECT ${COLUMNS}, password_hash AS "passwordHash" FROM users
        WHERE email = lower($1) AND password_hash IS NOT NULL AND disabled_at IS NULL`,
      [email],
    );
    return rows[0];
  }

  async byApiTokenHash(hash: string): Promise<User | undefined> {
    const rows: User[] = await this.db.query(
      `SELECT ${COLUMNS} FROM users WHERE api_token_hash = $1 AND disabled_at IS NULL`,
      [hash],
    );
    return rows[0];
  }

  /** Creates a local account; undefined when the email is taken. */
  async createLocal(
    email: string,
    displayName: string,
    role: Role,
    passwordHash: string,
  ): Promise<User | undefined> {
    const rows: User[] = await this.db.query(
      `INSERT INTO users (email, display_name, role, password_hash) VALUES (lower($1), $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [email, displayName, role, passwordHash],
    );
    return rows[0];
  }

  /**
   * The OIDC user of `subject`, created or updated from this sign-in (email, name and role follow the
   * provider at every sign-in); undefined when disabled, or when the email is a local account's.
   */
  async upsertOidc(
    subject: string,
    email: string,
    displayName: string,
    role: Role,
  ): Promise<User | undefined> {
    const rows: User[] = await this.db
      .query(
        `INSERT INTO users (email, display_name, role, oidc_subject, last_login_at)
       VALUES (lower($2), $3, $4, $1, now())
       ON CONFLICT (oidc_subject) DO UPDATE
         SET email = EXCLUDED.email, display_name = EXCLUDED.display_name, role = EXCLUDED.role,
             last_login_at = now()
         WHERE users.disabled_at IS NULL
       RETURNING ${COLUMNS}`,
        [subject, email, displayName, role],
      )
      .catch((err: { code?: string }) => {
        if (err.code === '23505') return []; // the email belongs to another account
        throw err;
      });
    return rows[0];
  }

  async loggedIn(id: string): Promise<void> {
    await this.db.query(`UPDATE users SET last_login_at = now() WHERE id = $1`, [id]);
  }

  async setRole(id: string, role: Role): Promise<boolean> {
    const result = await this.db.query(`UPDATE users SET role = $2 WHERE id = $1 RETURNING id`, [id, role]);
    return returnedRows(result).length === 1;
  }

  async setApiTokenHash(id: string, hash: string | null): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE users SET api_token_hash = $2 WHERE id = $1 AND disabled_at IS NULL RETURNING id`,
      [id, hash],
    );
    return returnedRows(result).length === 1;
  }

  /** Disables the user and ends their sessions (the row stays: audit rows name it). */
  async disable(id: string): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE users SET disabled_at = now(), api_token_hash = NULL WHERE id = $1 AND disabled_at IS NULL RETURNING id`,
      [id],
    );
    return returnedRows(result).length === 1;
  }
}
