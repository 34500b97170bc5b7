#!/usr/bin/env node
// Writes the `action` definition of src/rules/rule.schema.json from the action catalogue
// (src/actions/catalogue/action-schema.ts). Run after adding or changing an action:
// `npm run schema:write` (builds first). src/rules/rule-schema.spec.ts fails until it is run.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { actionSchema } = require('../dist/src/actions/catalogue/action-schema.js');

const file = join(__dirname, '..', 'src', 'rules', 'rule.schema.json');
const schema = JSON.parse(readFileSync(file, 'utf8'));
schema.definitions.action = actionSchema();
writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
console.log(`wrote ${file}`);
