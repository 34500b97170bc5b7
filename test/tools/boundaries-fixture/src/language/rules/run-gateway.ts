// Fixture: breaks core-names-services-by-type-only (a value import of the write face in the core),
// gateway-only-from-its-callers and crm-writes-only-from-execution, so at run time
// core-loads-no-framework too.
import { CrmWrites } from '../../outbound/crm-gateway/crm-writes';

export const gateway = () => new CrmWrites();
