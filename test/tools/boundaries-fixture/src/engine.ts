// Fixture: the engine boot, the one place allowed to import the sandbox.
import { startEmulator } from '../packages/crm-sandbox/src/emulator';

export const boot = () => startEmulator();
