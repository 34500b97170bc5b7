// Fixture: breaks core-loads-no-framework (Nest reached through another folder at run time) and
// core-imports-only-core-and-contract (the core importing ops).
import { ClockService } from '../../operator/ops/clock-service';

export const matchedAt = () => new ClockService().now();
