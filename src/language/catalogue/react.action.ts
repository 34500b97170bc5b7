// `- react: "👍"` -> POST /v1/messages/reactions on the triggering message (docs/CRM-API.md §4.4).
import { assignFirstLabel, messagingGuard, quoted, text, type ActionDefinition } from './action-definition';
import { assigneeLeafFalsified } from './assign.action';
import { messageTriggerOnly, MissingMessageError } from './message-trigger';

export type ReactAction = { type: 'react'; emoji: string; assignFirst?: string };
export type ResolvedReact = { type: 'react'; emoji: string };

export const reactAction: ActionDefinition<ReactAction, ResolvedReact> = {
  type: 'react',
  schema: {
    type: 'string',
    minLength: 1,
    description:
      'React to the triggering message with this emoji (message.* rules). The CRM needs an assignee first: add `assign-first` to assign one when missing.',
  },
  messaging: true,
  // Setting the same emoji again changes nothing, but a lost answer cannot be looked up: the
  // reaction is not part of a message's public shape.
  repeat: 'at-most-once',
  parse: (value) => (text(value) === undefined ? undefined : { emoji: text(value)! }),
  unavailableIn: (trigger) => messageTriggerOnly('react', 'answers the triggering message', trigger),
  label: (a) => `react ${quoted(a.emoji)}${assignFirstLabel(a)}`,
  effect: {
    writes: (a) => (a.assignFirst ? 'contact.assigneeId' : undefined),
    emits: (a) => (a.assignFirst ? ['contact.updated'] : []),
    falsifies: (a, leaf) => !!a.assignFirst && assigneeLeafFalsified(true, leaf),
  },
  resolve: async (a) => ({ type: 'react', emoji: a.emoji }),
  guard: (_r, contact) => messagingGuard(contact),
  apply: (_r, contact) => contact,
  aim: async (_r, env) => (env.message ? { conversationId: env.message.conversationId } : {}),
  execute: async (r, env) => {
    if (!env.message) throw new MissingMessageError('react');
    const { conversationId, messagePlatformId } = env.message;
    const input = { conversationId, contactId: env.contact.id, messagePlatformId, emoji: r.emoji };
    await env.gateway.reactToMessage(input, env.opts);
    return undefined;
  },
};
