// The conversation a message goes to: the triggering message's own conversation, else the
// contact's conversation on the named channel, else on the channel of its last conversation.
// POST /v1/conversations returns the conversation already open for the pair (docs/CRM-API.md §3),
// so opening is also how an open one is reused.
import type { Channel } from '@crm-rules/crm-contract';
import type { ExecutionEnv } from './action-definition';

/** Nothing to send in: no channel named, no triggering message, and the contact never talked. */
export class NoConversationError extends Error {
  override readonly name = 'NoConversationError';
  constructor(contactId: string) {
    super(`contact ${contactId} has no conversation and the action names no channel to open one on`);
  }
}

export async function conversationFor(env: ExecutionEnv, channel: Channel | undefined): Promise<string> {
  const contactId = env.contact.id;
  if (!channel && env.message) return env.message.conversationId;
  let channelId = channel?.id;
  if (!channelId) {
    // Newest activity first (docs/CRM-API.md (assumptions)): the first one is the last conversation.
    const page = await env.gateway.listConversations({ contactId, limit: 1 }, env.opts);
    channelId = page.data[0]?.channelId;
    if (!channelId) throw new NoConversationError(contactId);
  }
  return (await env.gateway.openConversation({ contactId, channelId }, env.opts)).id;
}
