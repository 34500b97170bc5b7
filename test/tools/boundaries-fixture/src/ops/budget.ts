// Fixture: breaks gateway-only-through-its-faces only (ops may load src/crm, but a face of it).
import { Gateway } from '../crm/crm-gateway.service';

export const budget = () => new Gateway();
