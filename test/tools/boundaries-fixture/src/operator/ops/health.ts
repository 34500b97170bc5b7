// Fixture: breaks sandbox-only-from-engine-boot (service code depending on the emulator).
import { startEmulator } from '../../../packages/crm-sandbox/src/emulator';

export const health = () => startEmulator();
