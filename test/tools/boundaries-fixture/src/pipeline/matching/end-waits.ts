// Fixture: breaks matching-never-writes (matching loading execution to end waiting runs).
import { endWaits } from '../execution/wait-cancellation';

export const onEvent = (contactId: string) => endWaits(contactId);
