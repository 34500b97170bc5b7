// Breaks net-is-a-leaf: the pure outbound half reaches into the service (the queue names).
import { QUEUE } from '../../runtime/queues/queue-names';

export const allowList = [QUEUE];
