// Fixture: the module wiring, the one place allowed to import the console.
import { consolePage } from './operator/console/console-page';

export const wiring = [consolePage];
