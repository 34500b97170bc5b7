// Every query on console_sessions. Times come from Postgres's clock (now()), so every API process
// judges idleness and age by the same clock, and tests can backdate a row to test the limits.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedRows, returnedRows } from '../../persistence/sql/returned-rows';

export interface SessionLimits {
  idleMs: number;
  lifetimeMs: number;
}

@Injectable()
export class ConsoleSessionsRepository {
  constructor(private readonly db: DataSource) {}

  /** `userId` NULL: a login with ADMIN_TOKEN. */
  async open(
    idHash: string,
    tokenFingerprint: string,
    clientAddress: string | undefined,
    userId: string | null = null,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO console_sessions (id_hash, token_fingerprint, client_address, user_id) VALUES ($1, $2, $3, $4)`,
      [idHash, tokenFingerprint, clientAddress ?? null, userId],
    );
  }

  /**
   * Marks the session seen now if it is open, of this token, not idle longer than idleMs and not
   * older than lifetimeMs, with the session's user; null otherwise (the caller treats it as logged out).
   */
  async touch(
    idHash: string,
    tokenFingerprint: string,
    limits: SessionLimits,
  ): Promise<{ userId: string | null } | null> {
    const result = await this.db.query(
      `UPDATE console_sessions SET last_seen_at = now()
        WHERE id_hash = $1 AND token_fingerprint = $2
          AND last_seen_at > now() - $3 * interval '1 millisecond'
          AND created_at > now() - $4 * interval '1 millisecond'
        RETURNING user_id AS "userId"`,
      [idHash, tokenFingerprint, limits.idleMs, limits.lifetimeMs],
    );
    return returnedRows<{ userId: string | null }>(result)[0] ?? null;
  }

  /** touch() without the touch: whether the session is still open, for a long answer (a live stream). */
  async isOpen(idHash: string, tokenFingerprint: string, limits: SessionLimits): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM console_sessions
        WHERE id_hash = $1 AND token_fingerprint = $2
          AND last_seen_at > now() - $3 * interval '1 millisecond'
          AND created_at > now() - $4 * interval '1 millisecond'`,
      [idHash, tokenFingerprint, limits.idleMs, limits.lifetimeMs],
    );
    return rows.length === 1;
  }

  /** Ends every session of a user (disabled, role changed by an admin who wants it to count now). */
  async closeForUser(userId: string): Promise<number> {
    return affectedRows(await this.db.query(`DELETE FROM console_sessions WHERE user_id = $1`, [userId]));
  }

  async close(idHash: string): Promise<void> {
    await this.db.query(`DELETE FROM console_sessions WHERE id_hash = $1`, [idHash]);
  }

  /** Deletes up to `limit` sessions past either limit; returns how many went. */
  async deleteExpired(limits: SessionLimits, limit: number): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM console_sessions WHERE id_hash IN (
         SELECT id_hash FROM console_sessions
          WHERE last_seen_at <= now() - $1 * interval '1 millisecond'
             OR created_at <= now() - $2 * interval '1 millisecond'
          LIMIT $3)`,
      [limits.idleMs, limits.lifetimeMs, limit],
    );
    return affectedRows(result);
  }
}
