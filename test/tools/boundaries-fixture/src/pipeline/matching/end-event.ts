// Fixture: breaks matching-never-writes (matching loading a ledger repository to write an event);
// the type-only import of its row type is allowed.
import { markProcessed, type InboxRow } from '../../persistence/ledger/inbox-events.repository';

export const endEvent = (row: InboxRow) => markProcessed(row.id);
