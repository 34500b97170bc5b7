// Fixture: breaks sandbox-only-from-engine-boot (service code depending on the emulator).
import { startEmulator } from '../sandbox/emulator';

export const health = () => startEmulator();
