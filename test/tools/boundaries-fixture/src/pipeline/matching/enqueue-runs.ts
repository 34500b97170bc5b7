// Fixture: breaks matching-never-writes (matching loading the queues).
import { QUEUE } from '../../runtime/queues/queue-names';

export const queueOf = () => QUEUE;
