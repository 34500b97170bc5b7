// Fixture: the engine boot, the one place allowed to import the sandbox.
import { startEmulator } from './sandbox/emulator';

export const boot = () => startEmulator();
