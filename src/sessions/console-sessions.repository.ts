// Every query on console_sessions. Times come from Postgres's clock (now()), so every API process
// judges idleness and age by the same clock, and tests can backdate a row to test the limits.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { affectedRows, returnedRows } from '../persistence/sql/returned-rows';

export interface SessionLimits {
  idleMs: number;
  lifetimeMs: number;
}

@Injectable()
export class ConsoleSessionsRepository {
  constructor(private readonly db: DataSource) {}

  async open(idHash: string, tokenFingerprint: string, clientAddress: string | undefined): Promise<void> {
    await this.db.query(
      `INSERT INTO console_sessions (id_hash, token_fingerprint, client_address) VALUES ($1, $2, $3)`,
      [idHash, tokenFingerprint, clientAddress ?? null],
    );
  }

  /**
   * Marks the session seen now if it is open, of this token, not idle longer than idleMs and not
   * older than lifetimeMs; false otherwise (the caller treats it as logged out).
   */
  async touch(idHash: string, tokenFingerprint: string, limits: SessionLimits): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE console_sessions SET last_seen_at = now()
        WHERE id_hash = $1 AND token_fingerprint = $2
          AND last_seen_at > now() - $3 * interval '1 millisecond'
          AND created_at > now() - $4 * interval '1 millisecond'
        RETURNING id_hash`,
      [idHash, tokenFingerprint, limits.idleMs, limits.lifetimeMs],
    );
    return returnedRows(result).length === 1;
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
