// The SQL predicate on `action_results a` of the skips an operator must see (MessageSkipKinds:
// customer messages for their reasons, and the `also` pairs, an assign's pool_full / pool_empty).
// Reasons and types as literals in the statement's text, not parameters: the planner then sees
// `reason IN (...)` equal to the predicate of the partial index IDX_action_results_message_skips
// (migration *-WidenMessageSkipsIndexToPools) and reads only those rows.
import type { MessageSkipKinds } from './run-rows';

const WORD = /^[a-z][a-z_-]*$/;
const literals = (xs: readonly string[]) =>
  xs
    .filter((x) => WORD.test(x))
    .map((x) => `'${x}'`)
    .join(', ') || 'NULL';

/** `typesParam`: the placeholder holding the message types (text[]). */
export function attentionSkipSql(k: MessageSkipKinds, typesParam: string): string {
  const also = k.also ?? [];
  const every = [...k.reasons, ...also.flatMap((a) => a.reasons)];
  const others = also
    .filter((a) => WORD.test(a.type))
    .map((a) => ` OR (a.action ->> 'type' = '${a.type}' AND a.reason IN (${literals(a.reasons)}))`)
    .join('');
  return `a.status = 'skipped' AND a.reason IN (${literals(every)})
    AND ((a.action ->> 'type' = ANY(${typesParam}) AND a.reason IN (${literals(k.reasons)}))${others})`;
}
