// Fixture: breaks gateway-only-from-its-callers (persistence loading the CRM gateway) and
// gateway-only-through-its-faces (the gateway itself, outside src/outbound/crm-gateway).
import { Gateway } from '../../outbound/crm-gateway/crm-gateway.service';

export const ENTITIES = [Gateway];
