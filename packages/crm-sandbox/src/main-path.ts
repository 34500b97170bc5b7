// Where the built stand-alone sandbox (main.js) is, for readers that run it as a process of its
// own (the benches, the chaos suite) rather than in-process with startSandbox().
import { join } from 'node:path';

export const SANDBOX_MAIN_PATH = join(__dirname, 'main.js');
