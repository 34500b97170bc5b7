// A contact's stored deliveries with their payloads as JSON, for tests that look an event up by
// what it carries: an event that left no run keeps its payload packed (issue 35,
// src/persistence/ledger/packed-payload.ts), so SQL's `payload->…` cannot find it.
import type { DataSource } from 'typeorm';
import { withPayload } from '../../src/persistence/ledger/packed-payload';

export interface StoredEvent {
  id: string;
  type: string;
  status: string;
  processed_at: Date | null;
  payload: { id?: string; data?: Record<string, unknown> } & Record<string, unknown>;
}

export async function storedEventsOf(db: DataSource, contactId: string): Promise<StoredEvent[]> {
  const rows: (StoredEvent & { payload_packed: Buffer | null })[] = await db.query(
    `SELECT id, type, status, processed_at, payload, payload_packed FROM inbox_events
      WHERE contact_id = $1 ORDER BY received_at`,
    [contactId],
  );
  return rows.map(withPayload);
}
