// `- send-template: { name, language?, parameters?, channel? }` -> POST /v1/message-templates/send
// (docs/CRM-API.md (assumptions)): an approved template, body parameters from the contact, the
// event or literals, in the conversation of conversation-for.ts; from any trigger.
import type { Channel, Uuid } from '@crm-rules/crm-contract';
import { isPlainObject } from '../rules/format/problem-collector';
import { assignFirstLabel, quoted, text, type ActionDefinition } from './action-definition';
import { conversationFor } from './conversation-for';
import { sentSince } from './message-lookup';
import { isSentTemplate } from './template-message';
import { CHANNEL_SCHEMA, conversationWrite, messageEffect } from './send-message.action';

export type SendTemplateAction = {
  type: 'send-template';
  name: string;
  language?: string;
  parameters?: string[];
  channel?: string;
  assignFirst?: string;
};
export type ResolvedSendTemplate = {
  type: 'send-template';
  templateId: Uuid;
  name: string;
  parameters: string[];
  /** The template's body when the CRM shows it: what the sent message reads, for the lookup. */
  body?: string;
  channel?: Channel;
};

export const sendTemplateAction: ActionDefinition<SendTemplateAction, ResolvedSendTemplate> = {
  type: 'send-template',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    description:
      'Send an approved message template. The CRM needs an assignee first: add `assign-first` to assign one when missing.',
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        description: 'The template name (or uuid); it must be APPROVED.',
      },
      language: {
        type: 'string',
        minLength: 1,
        description: 'The template language, when names repeat per language.',
      },
      parameters: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Body parameters {{1}}, {{2}}, ... in order: literals or mustache values such as {{contact.name}}.',
      },
      channel: CHANNEL_SCHEMA,
    },
  },
  messaging: true,
  customerMessage: true,
  repeat: 'at-most-once',
  parse(value) {
    if (!isPlainObject(value) || text(value.name) === undefined) return undefined;
    const parameters = Array.isArray(value.parameters)
      ? value.parameters.filter((p) => typeof p === 'string')
      : undefined;
    return {
      name: value.name as string,
      ...(text(value.language) ? { language: value.language as string } : {}),
      ...(parameters ? { parameters } : {}),
      ...(text(value.channel) ? { channel: value.channel as string } : {}),
    };
  },
  templates: (a) => (a.parameters ?? []).map((p, i) => ({ path: ['parameters', i], text: p })),
  label: (a) =>
    `send-template ${quoted(a.language ? `${a.name} (${a.language})` : a.name)}` +
    `${a.parameters?.length ? ` with ${quoted(a.parameters)}` : ''}${a.channel ? ` on ${quoted(a.channel)}` : ''}${assignFirstLabel(a)}`,
  names: (a) => [
    { kind: 'template', name: a.name, path: ['name'], ...(a.language ? { language: a.language } : {}) },
    ...(a.channel ? [{ kind: 'channel' as const, name: a.channel, path: ['channel'] }] : []),
  ],
  effect: messageEffect,
  resolve: async (a, env) => {
    const template = await env.directory.resolveTemplate(a.name, a.language);
    return {
      type: 'send-template',
      templateId: template.id,
      name: template.name,
      parameters: (a.parameters ?? []).map((p) => env.render(p)),
      ...(typeof template.body === 'string' ? { body: template.body } : {}),
      ...(a.channel ? { channel: await env.directory.resolveChannel(a.channel) } : {}),
    };
  },
  ...conversationWrite,
  execute: async (r, env) => {
    const conversationId = env.target?.conversationId ?? (await conversationFor(env, r.channel));
    const input = {
      conversationId,
      contactId: env.contact.id,
      templateId: r.templateId,
      bodyParameters: r.parameters,
    };
    await env.gateway.sendMessageTemplate(input, env.opts);
    return undefined;
  },
  // This template with these parameters, as far as the CRM's message shows it (template-message.ts).
  lookup: (r, env) => sentSince(env, (m) => isSentTemplate(r, m)),
};
