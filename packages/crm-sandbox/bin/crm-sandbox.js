#!/usr/bin/env node
// `crm-sandbox`: the CRM sandbox on its own (README.md: what it emulates, its variables). Runs the
// built package (npm run build in this folder, or `node scripts/setup.js` at the repository root).
'use strict';
require('../dist/main.js').runSandboxMain();
