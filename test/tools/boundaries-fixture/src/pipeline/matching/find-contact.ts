// Fixture: breaks crm-writes-only-from-execution and matching-never-writes (matching creating a
// contact in the CRM).
import { CrmWrites } from '../../outbound/crm-gateway/crm-writes';

export const findOrCreate = () => new CrmWrites().send('create');
