// `crm-rules snapshot`: the CRM's directory into rules/.crm-snapshot.json (names are then checked
// offline), and with --contacts every contact into a contacts file for forecasts.
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config/load-config';
import { cliCrm, cliCrmTarget } from '../toolchain/cli-crm';
import { snapshotPath, writeSnapshot } from '../../language/crm-terms/crm-snapshot';
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
    .option(
      '--url <url>',
      'CRM base address (default CRM_BASE_URL, else the embedded sandbox of `npm start`); the key is read from CRM_API_KEY',
    )
    .option('--out <file>', 'snapshot file (default DIR/.crm-snapshot.json)')
    .option(
      '--contacts [file]',
      `also write every contact (default DIR/${CONTACTS_FILE}; always done for the embedded sandbox)`,
    )
    .option('--no-contacts', 'only the directory, also from the embedded sandbox')
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
  const config = loadConfig(process.env);
  const { baseUrl, embedded } = cliCrmTarget(config, opts.url);
  if (embedded)
    eprintln(
      `info: no --url nor CRM_BASE_URL: taking the snapshot of the embedded sandbox at ${baseUrl} (the demo of npm start)`,
    );
  const crm = cliCrm(config.crm, baseUrl);
  let snapshot;
  try {
    snapshot = await pullSnapshot(crm);
  } catch (err) {
    if (!embedded || !isUnreachable(err)) throw err;
    eprintln(
      `snapshot: nothing answers at ${baseUrl}: start the demo (npm start), or give --url / CRM_BASE_URL`,
    );
    return 1;
  }
  const out = opts.out ?? snapshotPath(dir);
  await writeSnapshot(out, snapshot);
  println(
    `✔ ${out}: ${snapshot.tags.length} tag(s), ${snapshot.stages.length} stage(s), ${snapshot.channels.length} channel(s), ${snapshot.members.length} member(s), ${snapshot.customFields.length} custom field(s), ${snapshot.templates.length} template(s)`,
  );
  // The sandbox's contacts are few and its budget is its own: pull them, so forecast works next.
  if (opts.contacts === false || (opts.contacts === undefined && !embedded)) return 0;
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

/** A refused or unresolvable connection (no server there), as opposed to an answer from the CRM. */
function isUnreachable(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${String((err as { code?: unknown })?.code ?? '')} ${String((err as { cause?: { code?: unknown } })?.cause?.code ?? '')}`;
  return /ECONNREFUSED|ENOTFOUND|fetch failed|network/i.test(text);
}
