// Fixture: breaks no rule (matching naming a ledger row by type only).
import type { InboxRow } from '../../persistence/ledger/inbox-events.repository';

export const idOf = (row: InboxRow) => row.id;
