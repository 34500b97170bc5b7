// Fixture: the contract package, which imports nothing: importing a node module breaks
// contract-package-imports-nothing.
import { join } from 'node:path';

export type CrmContact = { id: string };
export const contactPath = (id: string) => join('contacts', id);
