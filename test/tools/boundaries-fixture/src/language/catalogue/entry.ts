// Fixture: breaks no rule (a type-only import of the write face is erased: nothing of Nest loads).
import type { CrmWrites } from '../../outbound/crm-gateway/crm-writes';

export const execute = (crm: CrmWrites) => crm.send('hi');
