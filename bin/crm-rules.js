#!/usr/bin/env node
'use strict';
// The `crm-rules` command: runs the compiled CLI (src/tooling/cli/index.ts -> dist/src/tooling/cli/index.js).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'src', 'tooling', 'cli', 'index.js');
if (!existsSync(entry)) {
  process.stderr.write('crm-rules: dist/src/tooling/cli/index.js is missing: run npm run build\n');
  process.exit(2);
}
// `crm-rules validate | head`: the reader leaving early is not an error of ours.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit();
  throw err;
});
require(entry)
  .run(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`crm-rules: ${err && err.stack ? err.stack : err}\n`);
      process.exitCode = 2;
    },
  );
