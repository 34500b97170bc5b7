// `crm-rules forecast`: the first sweep of each segment rule (or of the changed ones) over a
// contacts file, offline; --format markdown for a pull-request comment.
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { loadConfig } from '../../runtime/config/load-config';
import { formatProblems } from '../../language/rules/format/format-problems';
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import { readContactsFile } from '../toolchain/contacts-file';
import { eventLoad } from '../toolchain/event-load';
import { forecast } from '../toolchain/forecast';
import { formatForecast, type ReportFormat } from '../toolchain/forecast-format';
import { ruleFilesAtRef } from '../toolchain/git-rules';
import { readEventsFile } from '../toolchain/recorded-events';
import { changedRuleIds } from '../toolchain/rule-diff';
import { SnapshotDirectory } from '../toolchain/snapshot-directory';
import { snapshotNames } from '../toolchain/snapshot-names';
import type { CliState, Print } from './cli-io';
import { loadInputs } from './load-inputs';
import {
  addPriorMessagesOptions,
  priorMessagesSource,
  type PriorMessagesOptions,
} from './prior-messages-source';
import { CONTACTS_FILE } from './snapshot.command';

interface ForecastOptions extends PriorMessagesOptions {
  contacts?: string;
  events?: string;
  changed?: string;
  rule?: string;
  now?: string;
  snapshot?: string;
  format: ReportFormat;
}

export function addForecast(program: Command, println: Print, eprintln: Print, state: CliState): void {
  const command = program
    .command('forecast')
    .description(
      'what the first sweep of each segment rule would do to a contacts file: members, entering, actions after guards, CRM calls, time at the budget (offline)',
    )
    .argument('[dir]', 'rules directory', 'rules')
    .option('--contacts <file>', `contacts file (default DIR/${CONTACTS_FILE})`)
    .option('--events <file>', 'recorded events (GET /admin/events/export): the load event rules add')
    .option('--changed <ref>', 'only the segment rules added or changed since this git ref')
    .option('--rule <id>', 'only this rule')
    .option('--now <iso>', 'time of the sweep (default now)')
    .option('--snapshot <file>', 'CRM snapshot (default DIR/.crm-snapshot.json)');
  addPriorMessagesOptions(command, 'the policy caps')
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'),
    )
    .action(async (dir: string, opts: ForecastOptions) => {
      state.code = await forecastCommand(dir, opts, println, eprintln);
    });
}

async function forecastCommand(
  dir: string,
  opts: ForecastOptions,
  println: Print,
  eprintln: Print,
): Promise<number> {
  // A disabled rule never sweeps: its names (checked against the snapshot) must not block the rest.
  const loaded = await loadInputs([dir], opts.snapshot, { skipDisabled: true });
  const set = loaded.result.ruleSet;
  const skipped = loaded.result.skippedDisabled ?? [];
  if (skipped.length > 0) eprintln(`info: disabled rule(s) left out of the forecast: ${skipped.join(', ')}`);
  if (!set) {
    eprintln(formatProblems(loaded.result.problems, 'text'));
    return 1;
  }
  if (!loaded.snapshot) {
    eprintln(`${loaded.namesNote}\nforecast: names must resolve to ids: run crm-rules snapshot first`);
    return 2;
  }
  const now = opts.now ? new Date(opts.now) : new Date();
  if (Number.isNaN(now.getTime())) {
    eprintln(`--now: not a date-time: ${opts.now}`);
    return 2;
  }
  let rules = set.rules.filter((r) => r.enabled && (!opts.rule || r.id === opts.rule));
  if (opts.changed) {
    const base = loadRulesFromFiles(await ruleFilesAtRef(opts.changed, dir)).ruleSet?.rules ?? [];
    const changed = changedRuleIds(base, set.rules);
    rules = rules.filter((r) => changed.has(r.id));
  }
  const directory = new SnapshotDirectory(loaded.snapshot);
  const { contacts } = await readContactsFile(opts.contacts ?? join(dir, CONTACTS_FILE));
  const load = opts.events
    ? await eventLoad(set, await readEventsFile(opts.events), directory, snapshotNames(loaded.snapshot))
    : undefined;
  const result = await forecast({
    rules,
    contacts,
    directory,
    now,
    budget: loadConfig(process.env).crm.budget,
    eventCallsPerMinute: load?.callsPerMinute ?? 0,
    ...(set.policy ? { policy: set.policy } : {}),
    priorMessages: priorMessagesSource(opts, set.policy, now, process.env),
  });
  println(formatForecast(result, opts.format));
  if (!load && opts.format !== 'json') eprintln('info: no --events: the load of event rules was taken as 0');
  return result.rules.some((r) => r.error) ? 1 : 0;
}
