// Fixture: breaks gateway-only-through-its-faces only (ops may load src/outbound/crm-gateway, but a face of it).
import { Gateway } from '../../outbound/crm-gateway/crm-gateway.service';

export const budget = () => new Gateway();
