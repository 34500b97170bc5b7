// `- add-tag: vip` -> POST /v1/contacts/{id}/tags/{tagId} (docs/CRM-API.md §4.3).
import type { Uuid } from '@crm-rules/crm-contract';
import { PROCEED, quoted, sameName, skip, text, type ActionDefinition } from './action-definition';
import { hasTag, tagLabel } from './contact-tags';

export type AddTagAction = { type: 'add-tag'; tag: string };
export type ResolvedAddTag = { type: 'add-tag'; tagId: Uuid };

export const addTagAction: ActionDefinition<AddTagAction, ResolvedAddTag> = {
  type: 'add-tag',
  schema: {
    type: 'string',
    minLength: 1,
    description: 'Add a tag to the contact (tag name or uuid). Skipped when the contact already has it.',
  },
  repeat: 'state-checked',
  parse: (value) => (text(value) === undefined ? undefined : { tag: text(value)! }),
  label: (a) => `add-tag ${quoted(a.tag)}`,
  names: (a) => [{ kind: 'tag', name: a.tag, path: [] }],
  effect: {
    writes: () => 'contact.tags',
    emits: () => ['contact.updated'],
    falsifies: (a, leaf) =>
      leaf.field === 'contact.tags' && leaf.op === 'hasTag' && leaf.negated && sameName(leaf.value, a.tag),
    undoneBy: (a, other) =>
      other.type === 'remove-tag' && sameName(other.tag, a.tag)
        ? { what: `tag ${quoted(a.tag)}`, conflict: true }
        : undefined,
  },
  resolve: async (a, env) => ({ type: 'add-tag', tagId: (await env.directory.resolveTag(a.tag)).id }),
  guard: (r, contact) =>
    hasTag(contact, r.tagId)
      ? skip('no_change', `contact already has tag ${tagLabel(contact, r.tagId)}`)
      : PROCEED,
  // The name and colour are unknown here; guards only look at ids.
  apply: (r, contact) =>
    hasTag(contact, r.tagId)
      ? contact
      : { ...contact, tags: [...contact.tags, { id: r.tagId, name: '', color: '' }] },
  execute: (r, env) => env.gateway.addTag(env.contact.id, r.tagId, env.opts),
};
