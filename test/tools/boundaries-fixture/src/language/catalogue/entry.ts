// Fixture: breaks no rule (a type-only import is erased: nothing of Nest loads).
import type { Gateway } from '../../crm/crm-gateway.service';

export const execute = (gateway: Gateway) => gateway.send('hi');
