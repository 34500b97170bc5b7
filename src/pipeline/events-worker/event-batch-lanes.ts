// How an events job of an intake batch works its events: a contact's events one after another, in
// the order the intake stored them (as single jobs taken in order would), different contacts side by
// side so their ledger, mirror and lookup writes share the same group commits (src/persistence/sql/micro-batcher).
// Pure: no Nest, no I/O.

export interface BatchEvent<Row> {
  row: Row;
  correlationId: string;
}

/**
 * The batch's events in lanes, one per contact (an event without a contact is a lane of its own),
 * each lane in the batch's order. Ids without a row (deleted by retention) are left out.
 */
export function contactLanes<Row extends { id: string; contact_id: string | null }>(
  inboxEventIds: readonly string[],
  correlationIds: readonly string[],
  rows: readonly Row[],
): BatchEvent<Row>[][] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const lanes = new Map<string, BatchEvent<Row>[]>();
  inboxEventIds.forEach((id, i) => {
    const row = byId.get(id);
    if (!row) return;
    const key = row.contact_id === null ? `event:${id}` : `contact:${row.contact_id}`;
    const lane = lanes.get(key) ?? [];
    lane.push({ row, correlationId: correlationIds[i] ?? id });
    lanes.set(key, lane);
  });
  return [...lanes.values()];
}

/** Works the lanes with at most `concurrency` at once; resolves when all are done (never rejects if `work` does not). */
export async function workLanes<T>(
  lanes: readonly T[][],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < lanes.length) {
      const lane = lanes[next++];
      for (const item of lane) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, lanes.length) }, worker));
}
