// `- send-message: Thanks {{contact.name}}!` or `{ text, channel }` -> POST /v1/messages
// (docs/CRM-API.md (assumptions)) in the conversation of conversation-for.ts.
import type { Channel, Contact } from '@crm-rules/crm-contract';
import { isPlainObject } from '../rules/format/problem-collector';
import {
  assignFirstLabel,
  messagingGuard,
  PROCEED,
  quoted,
  skip,
  text,
  type ActionDefinition,
  type ExecutionEnv,
  type GuardVerdict,
} from './action-definition';
import { assigneeLeafFalsified } from './assign.action';
import { conversationFor } from './conversation-for';
import { sentSince } from './message-lookup';

export type SendMessageAction = {
  type: 'send-message';
  text: string;
  channel?: string;
  assignFirst?: string;
};
export type ResolvedSendMessage = { type: 'send-message'; text: string; channel?: Channel };

/** A named channel must be connected to send on it (docs/CRM-API.md §1). */
export function channelGuard(channel: Channel | undefined): GuardVerdict {
  return channel && channel.status !== 'connected'
    ? skip('channel_not_connected', `channel ${channel.name} (${channel.id}) is ${channel.status}`)
    : PROCEED;
}

/**
 * What every action writing into the contact's conversation shares: the messaging rules and a
 * connected channel as its guard, no local change to the contact, and the conversation aimed at
 * (and recorded on the action row) before the call, so a repeat writes into the same one.
 */
export const conversationWrite = {
  guard: (r: { channel?: Channel }, contact: Contact): GuardVerdict => {
    const verdict = messagingGuard(contact);
    return verdict.proceed ? channelGuard(r.channel) : verdict;
  },
  apply: (_r: unknown, contact: Contact): Contact => contact,
  aim: async (r: { channel?: Channel }, env: ExecutionEnv) => ({
    conversationId: await conversationFor(env, r.channel),
  }),
};

/** Effects every message-sending action shares: a message.created, plus the assignment of assign-first. */
export const messageEffect = {
  writes: (a: { assignFirst?: string }) => (a.assignFirst ? 'contact.assigneeId' : undefined),
  emits: (a: { assignFirst?: string }) =>
    a.assignFirst ? ['message.created', 'contact.updated'] : ['message.created'],
  // Every message is new; assign-first assigns only a contact with no assignee, so the
  // contact.updated it causes settles (the next run finds an assignee and writes nothing).
  alwaysWrites: (_a: unknown, kind: string) => kind === 'message.created',
  falsifies: (a: { assignFirst?: string }, leaf: Parameters<typeof assigneeLeafFalsified>[1]) =>
    !!a.assignFirst && assigneeLeafFalsified(true, leaf),
};

export const CHANNEL_SCHEMA = {
  type: 'string',
  minLength: 1,
  description:
    "Channel name or uuid: the contact's conversation on it is reused or opened. Default: the triggering message's conversation, else the channel of the contact's last conversation.",
};

export const sendMessageAction: ActionDefinition<SendMessageAction, ResolvedSendMessage> = {
  type: 'send-message',
  schema: {
    description:
      'Send a text to the contact (mustache values such as {{contact.name}} allowed), as a string or { text, channel }. The CRM needs an assignee first: add `assign-first` to assign one when missing.',
    // One schema for both forms (string keywords apply to strings, object keywords to mappings), so
    // a wrong value gets one problem rather than one per anyOf branch.
    type: ['string', 'object'],
    minLength: 1,
    additionalProperties: false,
    required: ['text'],
    properties: {
      text: { type: 'string', minLength: 1, description: 'The text; mustache values allowed.' },
      channel: CHANNEL_SCHEMA,
    },
  },
  messaging: true,
  customerMessage: true,
  repeat: 'at-most-once',
  parse(value) {
    if (text(value) !== undefined) return { text: text(value)! };
    if (!isPlainObject(value) || text(value.text) === undefined) return undefined;
    return {
      text: value.text as string,
      ...(text(value.channel) ? { channel: value.channel as string } : {}),
    };
  },
  // For the string form the position falls back to the string itself.
  templates: (a) => [{ path: ['text'], text: a.text }],
  label: (a) =>
    `send-message ${quoted(a.text)}${a.channel ? ` on ${quoted(a.channel)}` : ''}${assignFirstLabel(a)}`,
  names: (a) => (a.channel ? [{ kind: 'channel', name: a.channel, path: ['channel'] }] : []),
  effect: messageEffect,
  resolve: async (a, env) => ({
    type: 'send-message',
    text: env.render(a.text),
    ...(a.channel ? { channel: await env.directory.resolveChannel(a.channel) } : {}),
  }),
  ...conversationWrite,
  execute: async (r, env) => {
    const conversationId = env.target?.conversationId ?? (await conversationFor(env, r.channel));
    await env.gateway.sendMessage({ conversationId, contactId: env.contact.id, text: r.text }, env.opts);
    return undefined;
  },
  lookup: (r, env) => sentSince(env, (m) => m.text === r.text),
};
