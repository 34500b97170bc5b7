// Fixture: breaks gateway-only-from-its-callers (persistence loading the CRM gateway),
// gateway-only-through-its-faces (the gateway itself, outside src/outbound/crm-gateway) and
// persistence-is-below (the schema wiring importing more than an owner's entity); listing an
// owner's entity is allowed.
import { Gateway } from '../../outbound/crm-gateway/crm-gateway.service';
import { SegmentSweepEntity } from '../../pipeline/segments/segment-sweep.entity';

export const ENTITIES = [Gateway, SegmentSweepEntity];
