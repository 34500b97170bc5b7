// The partial index the console's "messages not sent" reads use lists the reasons of
// message-skips.ts in its predicate: a reason added here and not there would be counted through a
// slower plan, a reason dropped here would leave the index wider than needed. Same list, same order.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ATTENTION_INDEX_REASONS } from './message-skips';

it('IDX_action_results_message_skips covers exactly the attention skip reasons', () => {
  // The latest migration building it (its up(): the first CREATE INDEX of the file).
  const dir = join(__dirname, '..', '..', '..', 'migrations');
  const latest = readdirSync(dir)
    .filter((f) =>
      readFileSync(join(dir, f), 'utf8').includes('CREATE INDEX "IDX_action_results_message_skips"'),
    )
    .sort()
    .at(-1)!;
  const migration = readFileSync(join(dir, latest), 'utf8');
  const list = /CREATE INDEX "IDX_action_results_message_skips"[^`]*reason IN \(([^)]*)\)/.exec(
    migration,
  )![1];
  expect(list.split(',').map((r) => r.trim().replace(/'/g, ''))).toEqual([...ATTENTION_INDEX_REASONS]);
});
