// A replay made without force (InboxEventsRepository.insertReplayCopy): the customer-facing writes
// sent, or maybe sent, for the original trigger are skipped, not sent again.
import type { RunRow } from '../../persistence/ledger/run-rows';
import type { ActionRow } from '../../persistence/ledger/action-results.repository';
import type { EngineMetrics } from '../../operator/ops/engine-metrics';
import { ACTION_DEFINITIONS } from '../../language/catalogue/catalogue';
import type { RuleAction } from '../../language/rules/format/rule-types';
import type { RunRepositories } from './run-repositories';

/** Customer-facing writes (send-message, send-template, react): never repeated by the engine. */
const AT_MOST_ONCE_TYPES = ACTION_DEFINITIONS.filter((d) => d.repeat === 'at-most-once').map((d) => d.type);

/** What the original trigger's run sent, by `<action index>:<type>`; undefined for any other run. */
export type SentForOriginal = Map<string, string> | undefined;

export async function sentForOriginal(ledger: RunRepositories, run: RunRow): Promise<SentForOriginal> {
  if (!run.replay_of) return undefined;
  return ledger.actions.views.sentForTrigger(run.replay_of, run.rule_id, run.contact_id, AT_MOST_ONCE_TYPES);
}

/** Skips the action if the original trigger sent it (or may have); true when it did. */
export async function skipSentForOriginal(
  ledger: RunRepositories,
  metrics: EngineMetrics,
  run: RunRow,
  row: ActionRow,
  sent: SentForOriginal,
): Promise<boolean> {
  const type = (row.action as RuleAction).type;
  const original = sent?.get(`${row.action_index}:${type}`);
  if (!original) return false;
  await ledger.actions.skip(
    row.id,
    'already_sent_for_trigger',
    `${original === 'succeeded' ? 'sent' : `maybe sent (${original})`} for ${run.replay_of}; replay with force to send again`,
  );
  metrics.actions.inc({ type, status: 'skipped', reason: 'already_sent_for_trigger' });
  return true;
}
