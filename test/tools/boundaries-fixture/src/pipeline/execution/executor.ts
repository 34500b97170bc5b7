// Fixture: breaks no rule (execution changes the CRM through its write face).
import { CrmWrites } from '../../outbound/crm-gateway/crm-writes';

export const execute = () => new CrmWrites().send('hi');
