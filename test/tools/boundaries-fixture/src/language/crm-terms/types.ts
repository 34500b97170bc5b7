// Fixture: breaks crm-contract-is-a-leaf (the contract importing another src folder); importing the
// contract package is allowed.
import type { CrmContact } from '../../../packages/crm-contract/src/contact';
import { QUEUE } from '../../runtime/queues/queue-names';

export type Contact = CrmContact & { queue: typeof QUEUE };
