// Fixture: a ledger repository (its writes) and its row type; it imports a queue, above it
// (persistence-is-below).
import { QUEUE } from '../../runtime/queues/queue-names';

export type InboxRow = { id: string };

export const markProcessed = (id: string) => `${QUEUE}:${id}`;
