// Fixture: the CRM emulator, started by engine.ts only.
export const startEmulator = () => 'sandbox';
