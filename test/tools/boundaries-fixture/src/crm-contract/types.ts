// Fixture: breaks crm-contract-is-a-leaf (the contract importing another src folder).
import { QUEUE } from '../queues/queue-names';

export type Contact = { id: string; queue: typeof QUEUE };
