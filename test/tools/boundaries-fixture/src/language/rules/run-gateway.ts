// Fixture: breaks core-names-services-by-type-only (a value import of the gateway in the core),
// so at run time core-loads-no-framework too.
import { Gateway } from '../../crm/crm-gateway.service';

export const gateway = () => new Gateway();
