// `crm-rules snapshot`: the CRM's directory into rules/.crm-snapshot.json (names are then checked
// offline), and with --contacts every contact into a contacts file for forecasts.
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig } from '../config/load-config';
import { cliCrm } from '../toolchain/cli-crm';
import { snapshotPath, writeSnapshot } from '../toolchain/crm-snapshot';
import { pullContacts } from '../toolchain/pull-contacts';
import { pullSnapshot } from '../toolchain/pull-snapshot';
import type { CliState, Print } from './cli-io';

export const CONTACTS_FILE = '.crm-contacts.ndjson';

interface SnapshotOptions {
  url?: string;
  out?: string;
  contacts?: string | boolean;
}

export function addSnapshot(program: Command, println: Print, eprintln: Print, state: CliState): void {
  program
    .command('snapshot')
    .description(
      "pull the CRM's directory (tags, stages, channels, members, custom fields, templates) into a file beside the rules; --contacts also pages every contact (within the budget) into a contacts file for forecasts",
    )
    .argument('[dir]', 'rules directory', 'rules')
    .option('--url <url>', 'CRM base address (default CRM_BASE_URL); the key is read from CRM_API_KEY')
    .option('--out <file>', 'snapshot file (default DIR/.crm-snapshot.json)')
    .option('--contacts [file]', `also write every contact (default DIR/${CONTACTS_FILE})`)
    .action(async (dir: string, opts: SnapshotOptions) => {
      state.code = await snapshotCommand(dir, opts, println, eprintln);
    });
}

async function snapshotCommand(
  dir: string,
  opts: SnapshotOptions,
  println: Print,
  eprintln: Print,
): Promise<number> {
  const config = loadConfig({ ...process.env, ...(opts.url ? { CRM_BASE_URL: opts.url } : {}) });
  const baseUrl = config.crm.baseUrl;
  if (!baseUrl) {
    eprintln('snapshot: give --url or set CRM_BASE_URL (and CRM_API_KEY)');
    return 2;
  }
  const crm = cliCrm(config.crm, baseUrl);
  const snapshot = await pullSnapshot(crm);
  const out = opts.out ?? snapshotPath(dir);
  await writeSnapshot(out, snapshot);
  println(
    `✔ ${out}: ${snapshot.tags.length} tag(s), ${snapshot.stages.length} stage(s), ${snapshot.channels.length} channel(s), ${snapshot.members.length} member(s), ${snapshot.customFields.length} custom field(s), ${snapshot.templates.length} template(s)`,
  );
  if (opts.contacts === undefined || opts.contacts === false) return 0;
  const file = typeof opts.contacts === 'string' ? opts.contacts : join(dir, CONTACTS_FILE);
  // Drawn only on a terminal; in CI the summary line is enough.
  const bar = new SingleBar({
    format: 'contacts [{bar}] {value}/{total} | ETA {eta_formatted}',
    stream: process.stderr,
  });
  let started = false;
  const count = await pullContacts(crm, file, ({ done, total }) => {
    if (!started) bar.start(total, 0);
    started = true;
    bar.setTotal(total);
    bar.update(done);
  });
  if (started) bar.stop();
  println(`✔ ${file}: ${count} contact(s)`);
  return 0;
}
