// `crm-rules schema DIR`: the JSON Schemas of rule files, rule-test files, policy.yaml and sources.yaml,
// so a separate rules repository can point editors at them
// (`# yaml-language-server: $schema=schemas/rule.schema.json`).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import policySchema from '../../language/policy/policy.schema.json';
import testSchema from '../../language/rules/testing/rule-test.schema.json';
import ruleSchema from '../../language/rules/format/rule.schema.json';
import sourcesSchema from '../../language/rules/format/sources.schema.json';
import type { CliState, Print } from './cli-io';

export const SCHEMA_FILES: Record<string, unknown> = {
  'rule.schema.json': ruleSchema,
  'rule-test.schema.json': testSchema,
  'policy.schema.json': policySchema,
  'sources.schema.json': sourcesSchema,
};

export async function writeSchemas(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, schema] of Object.entries(SCHEMA_FILES)) {
    const path = join(dir, name);
    await writeFile(path, `${JSON.stringify(schema, null, 2)}\n`);
    written.push(path);
  }
  return written;
}

export function addSchema(program: Command, println: Print, state: CliState): void {
  program
    .command('schema')
    .description('write the JSON Schemas of rule files, rule-test files and policy.yaml to a directory')
    .argument('[dir]', 'output directory', 'schemas')
    .action(async (dir: string) => {
      for (const path of await writeSchemas(dir)) println(`✔ ${path}`);
      state.code = 0;
    });
}
