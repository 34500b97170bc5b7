// Which message of a conversation is the template this action sent, for the lookup after an
// unclear outcome (message-lookup.ts). The CRM's contract names neither the message shape nor a
// template's fields beyond id, name and status (docs/CRM-API.md A17); what it shows is used:
// - the template's body (`{{1}}`, `{{2}}`... placeholders) and the message's text: the text must be
//   that body rendered with this action's parameters. The body is the one of the named template in
//   the chosen language, so name, language and parameters are all matched through it;
// - no body, but a text: every parameter must appear in it;
// - a `templateId` on the message (not in the contract, honoured when shown): it must be ours;
// - no text at all: the closest safe rule left, any template message since the attempt began
//   (docs/RULES.md, "A message that may have been sent"). Pure.
import type { Message } from '@crm-rules/crm-contract';

export interface SentTemplate {
  templateId: string;
  /** The template's body when the CRM shows it, with `{{n}}` placeholders. */
  body?: string;
  parameters: readonly string[];
}

/** The body with `{{n}}` replaced by the n-th parameter (an absent one by nothing), as the CRM renders it. */
export function renderTemplateBody(body: string, parameters: readonly string[]): string {
  return body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => parameters[Number(n) - 1] ?? '');
}

export function isSentTemplate(sent: SentTemplate, message: Message): boolean {
  if (message.type !== 'template') return false;
  const shownId = (message as Message & { templateId?: unknown }).templateId;
  if (typeof shownId === 'string' && shownId !== sent.templateId) return false;
  const text = message.text;
  if (typeof text !== 'string' || text === '') return true;
  if (sent.body !== undefined) return text === renderTemplateBody(sent.body, sent.parameters);
  return sent.parameters.every((p) => text.includes(p));
}
