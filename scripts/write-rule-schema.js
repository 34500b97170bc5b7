#!/usr/bin/env node
// Writes the `action` definition of src/language/rules/format/rule.schema.json from the action catalogue
// (src/language/catalogue/action-schema.ts), and the operator names from src/language/matching/operators.ts. Run after adding or changing an action:
// `npm run schema:write` (builds first). src/language/rules/format/rule-schema.spec.ts fails until it is run.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { actionSchema } = require('../dist/src/language/catalogue/action-schema.js');
const { OPERATOR_NAMES } = require('../dist/src/language/matching/operators.js');

const file = join(__dirname, '..', 'src', 'language', 'rules', 'format', 'rule.schema.json');
const schema = JSON.parse(readFileSync(file, 'utf8'));
schema.definitions.action = actionSchema();
schema.definitions.condition.properties.operator.examples = [...OPERATOR_NAMES];
writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
console.log(`wrote ${file}`);
