// Fixture: breaks gateway-only-from-its-callers (persistence loading the CRM gateway).
import { Gateway } from '../crm/crm-gateway.service';

export const ENTITIES = [Gateway];
