// Tags (docs/CRM-API.md A10: list, update, delete; create is a sandbox addition). Deleting a tag
// takes it off every contact, each of which emits contact.updated.
import { randomUUID } from 'node:crypto';
import type { PageWithTotals, Tag } from '@crm-rules/crm-contract';
import { changeContact } from './contacts.operations';
import { checkBody, str } from './input-checks';
import { mustFind } from './lookups';
import { pageWithTotals } from './paging';
import { pageRequest, pagingSpec, type ParsedQuery } from './query-checks';
import { conflict } from './sandbox-error';
import type { OpContext } from './sandbox-state';

export const TAG_LIST_QUERY = { ...pagingSpec(100), search: { kind: 'string', max: 100 } } as const;
const SHAPE = { name: str({ min: 1, max: 50 }), color: str({ min: 1, max: 32 }) };

const view = (t: Tag): Tag => ({ id: t.id, name: t.name, color: t.color });

function assertNameFree(ctx: OpContext, name: string, exceptId?: string): void {
  for (const t of ctx.org.tags.values()) {
    if (t.id !== exceptId && t.name.toLowerCase() === name.toLowerCase())
      throw conflict('resource_conflict', `A tag named '${name}' already exists in this organization`);
  }
}

export function listTags(ctx: OpContext, q: ParsedQuery<typeof TAG_LIST_QUERY>): PageWithTotals<Tag> {
  const needle = q.search?.toLowerCase() ?? '';
  const rows = [...ctx.org.tags.values()]
    .filter((t) => t.name.toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(view);
  return pageWithTotals(rows, pageRequest(q));
}

export function createTag(ctx: OpContext, body: unknown): Tag {
  const input = checkBody<{ name: string; color?: string }>(body, SHAPE, ['name']);
  assertNameFree(ctx, input.name);
  const tag = {
    id: randomUUID(),
    name: input.name,
    color: input.color ?? '#9e9e9e',
    createdAt: ctx.now().toISOString(),
  };
  ctx.org.tags.set(tag.id, tag);
  return view(tag);
}

export function updateTag(ctx: OpContext, id: string, body: unknown): Tag {
  const tag = mustFind(ctx.org, 'tags', id);
  const input = checkBody<{ name?: string; color?: string }>(body, SHAPE);
  if (input.name !== undefined) assertNameFree(ctx, input.name, id);
  Object.assign(tag, input);
  return view(tag);
}

export function deleteTag(ctx: OpContext, id: string): { success: true; id: string } {
  mustFind(ctx.org, 'tags', id);
  for (const c of [...ctx.org.contacts.values()].filter((c) => c.tagIds.includes(id))) {
    changeContact(ctx, c.id, (rec) => {
      rec.tagIds = rec.tagIds.filter((t) => t !== id);
      return true;
    });
  }
  ctx.org.tags.delete(id);
  return { success: true, id };
}
