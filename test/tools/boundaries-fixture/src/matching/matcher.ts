// Fixture: breaks core-loads-no-framework only (Nest reached through another folder at run time).
import { ClockService } from '../ops/clock-service';

export const matchedAt = () => new ClockService().now();
