// Fixture: the CRM emulator package, started by engine.ts only. Importing the contract package is
// allowed; importing the engine's code breaks sandbox-imports-only-the-contract.
import type { CrmContact } from '../../crm-contract/src/contact';
import { QUEUE } from '../../../src/runtime/queues/queue-names';

export const startEmulator = (contact?: CrmContact) => `sandbox ${QUEUE} ${contact?.id ?? ''}`;
