// The partial index the console's "messages not sent" reads use lists the reasons of
// message-skips.ts in its predicate: a reason added here and not there would be counted through a
// slower plan, a reason dropped here would leave the index wider than needed. Same list, same order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ATTENTION_SKIP_REASONS } from './message-skips';

it('IDX_action_results_message_skips covers exactly the attention skip reasons', () => {
  const migration = readFileSync(
    join(__dirname, '..', '..', '..', 'migrations', '1766050000002-AddActionResultsMessageSkipsIndex.ts'),
    'utf8',
  );
  const list = /reason IN \(([^)]*)\)/.exec(migration)![1];
  expect(list.split(',').map((r) => r.trim().replace(/'/g, ''))).toEqual([...ATTENTION_SKIP_REASONS]);
});
