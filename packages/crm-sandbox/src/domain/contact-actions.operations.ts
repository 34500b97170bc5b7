// The contact moves of docs/CRM-API.md §3: add/remove tag, block/unblock, and the
// assumed PUT /v1/contacts/{id}/stage. Each returns the full contact and keeps the rest.
import type { Contact } from '@crm-rules/crm-contract';
import { uuidCheck } from '@crm-rules/crm-contract';
import { changeContact } from './contacts.operations';
import { checkBody, nullable } from './input-checks';
import { mustFind } from './lookups';
import type { OpContext } from './sandbox-state';

export function addTag(ctx: OpContext, contactId: string, tagId: string): Contact {
  mustFind(ctx.org, 'contacts', contactId);
  mustFind(ctx.org, 'tags', tagId);
  return changeContact(ctx, contactId, (c) => {
    if (c.tagIds.includes(tagId)) return false;
    c.tagIds.push(tagId);
    return true;
  });
}

export function removeTag(ctx: OpContext, contactId: string, tagId: string): Contact {
  mustFind(ctx.org, 'contacts', contactId);
  mustFind(ctx.org, 'tags', tagId);
  return changeContact(ctx, contactId, (c) => {
    if (!c.tagIds.includes(tagId)) return false;
    c.tagIds = c.tagIds.filter((t) => t !== tagId);
    return true;
  });
}

export function setBlocked(ctx: OpContext, contactId: string, blocked: boolean): Contact {
  return changeContact(ctx, contactId, (c) => {
    if (c.isBlocked === blocked) return false;
    c.isBlocked = blocked; // status is independent of blocking and stays as it is
    return true;
  });
}

export function setStage(ctx: OpContext, contactId: string, body: unknown): Contact {
  mustFind(ctx.org, 'contacts', contactId);
  const { stageId } = checkBody<{ stageId: string | null }>(body, { stageId: nullable(uuidCheck) }, [
    'stageId',
  ]);
  if (stageId !== null) mustFind(ctx.org, 'stages', stageId, 'stageId');
  return changeContact(ctx, contactId, (c) => {
    if (c.stageId === stageId) return false;
    c.stageId = stageId;
    return true;
  });
}
