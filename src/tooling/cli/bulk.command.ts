// `crm-rules bulk list [--rule R] | show ID | create RULE CONTACT... | confirm ID | cancel ID`: bulk
// runs of the running engine (issue 34, goal 5) through its admin API (/admin/bulk-runs): a rule's
// backfill prepared on activation, or a rule run for a list of contacts, previewed before anyone
// confirms it.
import type { Command } from 'commander';
import type { CliState, Print } from './cli-io';
import { callEngine, type EngineCall } from './engine-call';

interface BulkRunView {
  id: string;
  ruleId: string;
  ruleVersion: string;
  source: string;
  state: string;
  contacts: number;
  evaluated: number;
  runsCreated: number;
  createdBy: string;
  decidedBy: string | null;
  detail: string | null;
  createdAt: string;
  forecast: { calls: number; callsPerRun: number; minutesIfIdle: number; minutesAtMinShare: number } | null;
  firstContacts?: { id: string; label: string }[];
  runs?: Record<string, number>;
}

export function addBulk(program: Command, println: Print, eprintln: Print, state: CliState): void {
  const bulk = program
    .command('bulk')
    .description(
      'bulk runs of the running engine: backfills and runs for a list of contacts, confirmed first',
    )
    .option('--url <url>', 'engine address (default http://HOST:PORT from the environment)')
    .option('--json', 'print the engine answer as JSON');
  const run = (call: EngineCall, format: (body: unknown) => string[]) => async () => {
    const opts = bulk.opts<{ url?: string; json?: boolean }>();
    state.code = await callEngine(
      'bulk',
      call,
      opts,
      (body) => (opts.json ? [JSON.stringify(body, null, 2)] : format(body)),
      println,
      eprintln,
    );
  };
  bulk
    .command('list')
    .description('bulk runs, newest first')
    .option('--rule <id>', 'of one rule')
    .action((o: { rule?: string }) =>
      run({ method: 'GET', path: `bulk-runs${o.rule ? `?rule=${encodeURIComponent(o.rule)}` : ''}` }, (b) =>
        (b as { data: BulkRunView[] }).data.map(summary),
      )(),
    );
  bulk
    .command('show <id>')
    .description('one bulk run: who, the forecast, its runs by status')
    .action((id: string) => run({ method: 'GET', path: `bulk-runs/${encodeURIComponent(id)}` }, details)());
  bulk
    .command('create <rule> [contactIds...]')
    .description(
      "preview RULE for these contacts (ids) or a segment's members; nothing runs before `bulk confirm`",
    )
    .option(
      '--segment <name>',
      "a segment rule's segment (or its rule id): its members as its last sweep stored them",
    )
    .action((rule: string, contactIds: string[], o: { segment?: string }) =>
      run(
        {
          method: 'POST',
          path: `rules/${encodeURIComponent(rule)}/bulk-runs`,
          body: o.segment ? { segment: o.segment } : { contactIds },
        },
        details,
      )(),
    );
  bulk
    .command('confirm <id>')
    .description('confirm a previewed bulk run: its runs start at bulk priority')
    .action((id: string) =>
      run({ method: 'POST', path: `bulk-runs/${encodeURIComponent(id)}/confirm` }, details)(),
    );
  bulk
    .command('cancel <id>')
    .description('cancel a previewed bulk run')
    .action((id: string) =>
      run({ method: 'POST', path: `bulk-runs/${encodeURIComponent(id)}/cancel` }, details)(),
    );
}

function summary(b: BulkRunView): string {
  return `${b.id} ${b.state.padEnd(20)} ${b.ruleId}@${b.ruleVersion} ${b.source}, ${b.contacts} contact(s), ${b.runsCreated} run(s) created, ${b.createdAt}`;
}

export function details(body: unknown): string[] {
  const b = body as BulkRunView;
  const lines = [summary(b), `  by ${b.createdBy}${b.decidedBy ? `, decided by ${b.decidedBy}` : ''}`];
  if (b.forecast)
    lines.push(
      `  forecast: ${b.forecast.calls} CRM call(s) (${b.forecast.callsPerRun} a run), ${b.forecast.minutesIfIdle} min at the whole budget, ${b.forecast.minutesAtMinShare} min at bulk's guaranteed share`,
    );
  lines.push(`  matched ${b.contacts} of ${b.evaluated} contact(s) evaluated`);
  if (b.detail) lines.push(`  note: ${b.detail}`);
  const shown = b.firstContacts ?? [];
  if (shown.length)
    lines.push(
      `  contacts: ${shown.map((c) => c.label).join(', ')}${b.contacts > shown.length ? `, and ${b.contacts - shown.length} more` : ''}`,
    );
  const runs = Object.entries(b.runs ?? {});
  if (runs.length) lines.push(`  runs: ${runs.map(([s, n]) => `${n} ${s}`).join(', ')}`);
  if (b.state === 'pending_confirmation') lines.push(`  confirm: crm-rules bulk confirm ${b.id}`);
  return lines;
}
