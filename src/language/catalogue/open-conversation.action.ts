// `- open-conversation: Main WhatsApp` -> POST /v1/conversations (docs/CRM-API.md §4.2). Opening
// again returns the conversation already open for the pair, so a repeat finds it instead of
// making a second one.
import type { Channel } from '@crm-rules/crm-contract';
import { PROCEED, quoted, skip, text, type ActionDefinition } from './action-definition';
import { channelGuard } from './send-message.action';

export type OpenConversationAction = { type: 'open-conversation'; channel: string };
export type ResolvedOpenConversation = { type: 'open-conversation'; channelId: string; channel?: Channel };

export const openConversationAction: ActionDefinition<OpenConversationAction, ResolvedOpenConversation> = {
  type: 'open-conversation',
  schema: {
    type: 'string',
    minLength: 1,
    description:
      'Open a conversation with the contact on this channel (channel name or uuid); the channel must be connected.',
  },
  repeat: 'lookup-before-repeat',
  parse: (value) => (text(value) === undefined ? undefined : { channel: text(value)! }),
  label: (a) => `open-conversation ${quoted(a.channel)}`,
  names: (a) => [{ kind: 'channel', name: a.channel, path: [] }],
  effect: { emits: () => [] },
  resolve: async (a, env) => {
    const channel = await env.directory.resolveChannel(a.channel);
    return { type: 'open-conversation', channelId: channel.id, channel };
  },
  guard: (r, contact) =>
    contact.isBlocked
      ? skip('contact_blocked', `contact ${contact.id} is blocked`)
      : r.channel
        ? channelGuard(r.channel)
        : PROCEED,
  apply: (_r, contact) => contact,
  execute: async (r, env) => {
    await env.gateway.openConversation({ contactId: env.contact.id, channelId: r.channelId }, env.opts);
    return undefined;
  },
};
