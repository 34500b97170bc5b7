// `- remove-tag: vip` -> DELETE /v1/contacts/{id}/tags/{tagId} (docs/CRM-API.md §4.3).
import type { Uuid } from '@crm-rules/crm-contract';
import { PROCEED, quoted, sameName, skip, text, type ActionDefinition } from './action-definition';
import { hasTag } from './contact-tags';

export type RemoveTagAction = { type: 'remove-tag'; tag: string };
export type ResolvedRemoveTag = { type: 'remove-tag'; tagId: Uuid };

export const removeTagAction: ActionDefinition<RemoveTagAction, ResolvedRemoveTag> = {
  type: 'remove-tag',
  schema: {
    type: 'string',
    minLength: 1,
    description:
      'Remove a tag from the contact (tag name or uuid). Skipped when the contact does not have it.',
  },
  repeat: 'state-checked',
  parse: (value) => (text(value) === undefined ? undefined : { tag: text(value)! }),
  label: (a) => `remove-tag ${quoted(a.tag)}`,
  names: (a) => [{ kind: 'tag', name: a.tag, path: [] }],
  effect: {
    writes: () => 'contact.tags',
    emits: () => ['contact.updated'],
    falsifies: (a, leaf) =>
      leaf.field === 'contact.tags' && leaf.op === 'hasTag' && !leaf.negated && sameName(leaf.value, a.tag),
    undoneBy: (a, other) =>
      other.type === 'add-tag' && sameName(other.tag, a.tag)
        ? { what: `tag ${quoted(a.tag)}`, conflict: true }
        : undefined,
  },
  resolve: async (a, env) => ({ type: 'remove-tag', tagId: (await env.directory.resolveTag(a.tag)).id }),
  guard: (r, contact) =>
    hasTag(contact, r.tagId) ? PROCEED : skip('no_change', `contact does not have tag ${r.tagId}`),
  apply: (r, contact) => ({ ...contact, tags: contact.tags.filter((t) => t.id !== r.tagId) }),
  execute: (r, env) => env.gateway.removeTag(env.contact.id, r.tagId, env.opts),
};
