// `crm-rules init DIR`: scaffolds a separate rules repository (rules, a test, a snapshot
// placeholder, the JSON Schemas, a CI workflow, package.json depending on this tool).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { initFiles } from '../toolchain/init-files';
import type { CliState, Print } from './cli-io';
import { writeSchemas } from './schema.command';

/** This package's folder (dist/src/tooling/cli/ or src/tooling/cli/ is two or three levels below it). */
function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export function addInit(program: Command, println: Print, eprintln: Print, state: CliState): void {
  program
    .command('init')
    .description('scaffold a rules repository: rules, a test, a snapshot placeholder, schemas, a CI workflow')
    .argument('<dir>', 'directory of the new repository')
    .option(
      '--from <spec>',
      'npm spec of crm-rules for package.json: a git URL (git+https://host/org/repo.git#tag) or a tarball (default: this installation)',
    )
    .option('--force', 'overwrite files that exist')
    .action(async (dir: string, opts: { from?: string; force?: boolean }) => {
      const files = initFiles({
        toolSpec: opts.from ?? `file:${packageRoot()}`,
        name: basename(resolve(dir))
          .toLowerCase()
          .replace(/[^a-z0-9-]/g, '-'),
      });
      const clash = Object.keys(files).filter((f) => existsSync(join(dir, f)));
      if (clash.length > 0 && !opts.force) {
        eprintln(`init: ${clash.map((f) => join(dir, f)).join(', ')} exist(s); use --force to overwrite`);
        state.code = 1;
        return;
      }
      for (const [rel, text] of Object.entries(files)) {
        const path = join(dir, rel);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, text);
        println(`✔ ${path}`);
      }
      for (const path of await writeSchemas(join(dir, 'schemas'))) println(`✔ ${path}`);
      println(
        `next: cd ${dir} && npm install && npx crm-rules snapshot rules --url <CRM address> (CRM_API_KEY set), then commit`,
      );
      state.code = 0;
    });
}
