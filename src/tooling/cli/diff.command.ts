// `crm-rules diff --base REF`: recorded events replayed through the rules at REF and in the
// working tree, each with its messaging policy; per rule, which contacts gain or lose which
// actions. --fail-on-change gates a PR. The caps start from the messages contacts got before the
// first recorded event (--ledger / --prior-messages, as in forecast).
import { Option, type Command } from 'commander';
import type { MessagingPolicy } from '../../language/policy/messaging-policy';
import { formatProblems } from '../../language/rules/format/format-problems';
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import { formatDiff, hasChanges } from '../toolchain/diff-format';
import type { ReportFormat } from '../toolchain/forecast-format';
import { ruleFilesAtRef } from '../toolchain/git-rules';
import { readEventsFile } from '../toolchain/recorded-events';
import { diffRuleSets } from '../toolchain/rule-diff';
import { snapshotNames } from '../toolchain/snapshot-names';
import type { CliState, Print } from './cli-io';
import { loadInputs } from './load-inputs';
import {
  addPriorMessagesOptions,
  priorMessagesSource,
  type PriorMessagesOptions,
} from './prior-messages-source';

interface DiffOptions extends PriorMessagesOptions {
  base: string;
  events: string;
  examples: string;
  failOnChange?: boolean;
  format: ReportFormat;
}

export function addDiff(program: Command, println: Print, eprintln: Print, state: CliState): void {
  const command = program
    .command('diff')
    .description(
      'replay recorded events through the rules at a git ref and in the working tree; report per rule who gains or loses which actions (offline)',
    )
    .argument('[dir]', 'rules directory', 'rules')
    .requiredOption('--base <ref>', 'git ref of the rules to compare with (e.g. origin/main)')
    .requiredOption('--events <file>', 'recorded events (GET /admin/events/export)')
    .option('--examples <n>', 'example contacts listed per rule and side', '5')
    .option('--fail-on-change', 'exit 1 when any contact gains or loses an action');
  addPriorMessagesOptions(command, "both sides' policy caps")
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'),
    )
    .action(async (dir: string, opts: DiffOptions) => {
      state.code = await diffCommand(dir, opts, println, eprintln);
    });
}

async function diffCommand(dir: string, opts: DiffOptions, println: Print, eprintln: Print): Promise<number> {
  const loaded = await loadInputs([dir]);
  const head = loaded.result;
  const base = loadRulesFromFiles(await ruleFilesAtRef(opts.base, dir));
  for (const [side, result] of [
    ['working tree', head],
    [opts.base, base],
  ] as const) {
    if (result.ruleSet) continue;
    eprintln(formatProblems(result.problems, 'text'));
    eprintln(`diff: the rules at ${side} do not validate`);
    return 2;
  }
  const events = await readEventsFile(opts.events);
  const policies = { base: base.ruleSet!.policy, head: head.ruleSet!.policy };
  const first = events.reduce((t, e) => Math.min(t, new Date(e.createdAt).getTime()), Infinity);
  // The ledger is read up to the first event, over the longest cap period of either side.
  const lookup = priorMessagesSource(opts, capsOfBoth(policies), new Date(first), process.env);
  const diff = await diffRuleSets(
    base.ruleSet!.rules,
    head.ruleSet!.rules,
    events,
    Number(opts.examples) || 5,
    snapshotNames(loaded.snapshot),
    // Each side with its own policy.yaml: caps and quiet hours replayed across that side's rules.
    { ...policies, ...(lookup && events.length > 0 ? { priorMessages: lookup } : {}) },
  );
  println(formatDiff(diff, opts.format, opts.base));
  return opts.failOnChange && hasChanges(diff) ? 1 : 0;
}

/** A policy with both sides' caps, so the ledger is read over the longer period and more rows. */
function capsOfBoth(p: { base?: MessagingPolicy; head?: MessagingPolicy }): MessagingPolicy | undefined {
  const either = p.head ?? p.base;
  return either && { ...either, caps: [...(p.base?.caps ?? []), ...(p.head?.caps ?? [])] };
}
