// Fixture: breaks gateway-only-from-its-callers (persistence loading the CRM gateway) and
// gateway-only-through-its-faces (the gateway itself, outside src/crm).
import { Gateway } from '../crm/crm-gateway.service';

export const ENTITIES = [Gateway];
