// Looking a sent message up after an unclear outcome: the newest messages of the conversation
// it was sent in (GET /v1/messages, newest first; docs/CRM-API.md (assumptions)).
import type { Message } from '@crm-rules/crm-contract';
import type { ExecutionEnv } from './action-definition';
import type { ActionTarget } from './action-result-terms';

/** Clocks of the engine's database and the CRM may differ this much. */
const CLOCK_SKEW_MS = 5_000;
/** A message sent since the attempt began is among the newest ones of its conversation. */
const RECENT = 50;

export async function sentSince(
  env: ExecutionEnv & { target: ActionTarget; since: Date },
  matches: (m: Message) => boolean,
): Promise<boolean> {
  const conversationId = env.target.conversationId;
  if (!conversationId) return false;
  const page = await env.gateway.listMessages({ conversationId, limit: RECENT }, env.opts);
  const from = env.since.getTime() - CLOCK_SKEW_MS;
  return page.data.some((m) => m.isOutgoing && Date.parse(m.createdAt) >= from && matches(m));
}
