// `- move-stage: Qualified` (null clears) -> PUT /v1/contacts/{id}/stage (docs/CRM-API.md (assumptions)).
import type { Uuid } from '@crm-rules/crm-contract';
import { PROCEED, quoted, sameName, skip, text, type ActionDefinition } from './action-definition';

export type MoveStageAction = { type: 'move-stage'; stage: string | null };
export type ResolvedMoveStage = { type: 'move-stage'; stageId: Uuid | null };

export const moveStageAction: ActionDefinition<MoveStageAction, ResolvedMoveStage> = {
  type: 'move-stage',
  schema: {
    type: ['string', 'null'],
    minLength: 1,
    description: 'Move the contact to a stage (stage name or uuid); null clears the stage.',
  },
  repeat: 'state-checked',
  parse: (value) =>
    value === null ? { stage: null } : text(value) === undefined ? undefined : { stage: text(value)! },
  label: (a) => `move-stage ${a.stage === null ? 'null' : quoted(a.stage)}`,
  names: (a) => (a.stage === null ? [] : [{ kind: 'stage', name: a.stage, path: [] }]),
  effect: {
    writes: () => 'contact.stageId',
    emits: () => ['contact.updated'],
    falsifies: (a, leaf) =>
      a.stage !== null &&
      leaf.field === 'contact.stageId' &&
      !leaf.negated &&
      ((leaf.op === 'equal' && leaf.value === null) || (leaf.op === 'exists' && leaf.value === false)),
    undoneBy: (a, other) =>
      other.type === 'move-stage' && !sameName(other.stage, a.stage)
        ? { what: 'stage', conflict: false }
        : undefined,
  },
  resolve: async (a, env) => ({
    type: 'move-stage',
    stageId: a.stage === null ? null : (await env.directory.resolveStage(a.stage)).id,
  }),
  guard: (r, contact) =>
    (contact.stageId ?? null) === r.stageId
      ? skip(
          'no_change',
          r.stageId ? `contact is already on stage ${r.stageId}` : 'contact has no stage already',
        )
      : PROCEED,
  apply: (r, contact) => ({ ...contact, stageId: r.stageId }),
  execute: (r, env) => env.gateway.setStage(env.contact.id, r.stageId, env.opts),
};
