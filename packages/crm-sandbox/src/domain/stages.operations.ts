// Contact stages (docs/CRM-API.md §4.5 and A11). Deleting a stage needs
// transferToStageId: an existing, different stage that receives its contacts, each of
// which emits contact.updated.
import { randomUUID } from 'node:crypto';
import type { ContactStage } from '@crm-rules/crm-contract';
import { booleanCheck, detail, uuidCheck } from '@crm-rules/crm-contract';
import { changeContact } from './contacts.operations';
import { checkBody, nullable, str } from './input-checks';
import { mustFind } from './lookups';
import { assertValid, conflict } from './sandbox-error';
import type { OpContext } from './sandbox-state';

const SHAPE = {
  name: str({ min: 1, max: 100 }),
  color: nullable(str({ max: 32 })),
  description: nullable(str({ max: 1000 })),
  isInProgress: booleanCheck,
};

interface StageInput {
  name?: string;
  color?: string | null;
  description?: string | null;
  isInProgress?: boolean;
}

function assertNameFree(ctx: OpContext, name: string, exceptId?: string): void {
  for (const s of ctx.org.stages.values()) {
    if (s.id !== exceptId && s.name.toLowerCase() === name.toLowerCase())
      throw conflict(
        'resource_conflict',
        `A contact stage named '${name}' already exists in this organization`,
      );
  }
}

export function listStages(ctx: OpContext): { data: ContactStage[] } {
  return {
    data: [...ctx.org.stages.values()].sort((a, b) => a.sortOrder - b.sortOrder).map((s) => ({ ...s })),
  };
}

export function createStage(ctx: OpContext, body: unknown): ContactStage {
  const input = checkBody<StageInput>(body, SHAPE, ['name']);
  assertNameFree(ctx, input.name as string);
  const now = ctx.now().toISOString();
  const sortOrder = Math.max(-1, ...[...ctx.org.stages.values()].map((s) => s.sortOrder)) + 1;
  const stage: ContactStage = {
    id: randomUUID(),
    name: input.name as string,
    description: input.description ?? null,
    color: input.color ?? null,
    sortOrder,
    badge: null,
    isInProgress: input.isInProgress ?? false,
    createdAt: now,
    updatedAt: now,
  };
  ctx.org.stages.set(stage.id, stage);
  return { ...stage };
}

export function updateStage(ctx: OpContext, id: string, body: unknown): ContactStage {
  const stage = mustFind(ctx.org, 'stages', id);
  const input = checkBody<StageInput>(body, SHAPE);
  if (input.name !== undefined) assertNameFree(ctx, input.name, id);
  Object.assign(stage, input, { updatedAt: ctx.now().toISOString() });
  return { ...stage };
}

export function deleteStage(ctx: OpContext, id: string, body: unknown) {
  mustFind(ctx.org, 'stages', id);
  const { transferToStageId } = checkBody<{ transferToStageId: string }>(
    body,
    { transferToStageId: uuidCheck },
    ['transferToStageId'],
  );
  if (transferToStageId === id)
    assertValid([
      detail(
        'transferToStageId',
        'invalid_string',
        'transferToStageId must name a different stage than the one deleted',
      ),
    ]);
  mustFind(ctx.org, 'stages', transferToStageId, 'transferToStageId');
  const moved = [...ctx.org.contacts.values()].filter((c) => c.stageId === id);
  for (const c of moved) {
    changeContact(ctx, c.id, (rec) => {
      rec.stageId = transferToStageId;
      return true;
    });
  }
  ctx.org.stages.delete(id);
  return { success: true, id, transferToStageId, movedContacts: moved.length };
}
