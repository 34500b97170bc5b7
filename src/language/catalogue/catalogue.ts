// The registry: every action type the rules can use, one catalogue entry each. Adding an action
// is one `<name>.action.ts` file listed here, plus its tests and docs.
import type { ActionDefinition } from './action-definition';
import { addTagAction } from './add-tag.action';
import { assignAction } from './assign.action';
import { blockAction } from './block.action';
import { createSegmentAction } from './create-segment.action';
import { httpRequestAction } from './http-request.action';
import { moveStageAction } from './move-stage.action';
import { openConversationAction } from './open-conversation.action';
import { reactAction } from './react.action';
import { removeTagAction } from './remove-tag.action';
import { sendMessageAction } from './send-message.action';
import { sendTemplateAction } from './send-template.action';
import { setFieldAction } from './set-field.action';
import { unassignAction } from './unassign.action';
import { unblockAction } from './unblock.action';
import { updateContactAction } from './update-contact.action';

/** In the order the docs and the schema list them. */
const ENTRIES = [
  addTagAction,
  removeTagAction,
  moveStageAction,
  assignAction,
  unassignAction,
  setFieldAction,
  updateContactAction,
  reactAction,
  sendMessageAction,
  sendTemplateAction,
  openConversationAction,
  blockAction,
  unblockAction,
  createSegmentAction,
  httpRequestAction,
] as const;

type Entry = (typeof ENTRIES)[number];

/** An action as a rule declares it (names as written), stored as such in the ledger. */
export type RuleAction = Entry extends infer D
  ? D extends ActionDefinition<infer A, infer _R>
    ? A
    : never
  : never;
/** The same action with names resolved to ids and templates rendered: what the CRM call takes. */
export type ResolvedAction = Entry extends infer D
  ? D extends ActionDefinition<infer _A, infer R>
    ? R
    : never
  : never;

export type ActionType = RuleAction['type'];

export type AnyActionDefinition = ActionDefinition<RuleAction, ResolvedAction>;

export const ACTION_DEFINITIONS: readonly AnyActionDefinition[] = ENTRIES;

export const ACTION_TYPES: readonly ActionType[] = ENTRIES.map((d) => d.type);

const BY_TYPE = new Map<string, AnyActionDefinition>(ACTION_DEFINITIONS.map((d) => [d.type, d]));

/** The catalogue entry of a type; throws for a type that is not in the catalogue (a stored row of a removed action). */
export function actionDefinition(type: string): AnyActionDefinition {
  const found = BY_TYPE.get(type);
  if (!found) throw new UnknownActionTypeError(type);
  return found;
}

/** The one way an action is shown: explain, rule tests, plans, validator messages. */
export function actionLabel(action: RuleAction): string {
  return actionDefinition(action.type).label(action);
}

export function isActionType(type: string): type is ActionType {
  return BY_TYPE.has(type);
}

export class UnknownActionTypeError extends Error {
  override readonly name = 'UnknownActionTypeError';
  constructor(readonly actionType: string) {
    super(`unknown action type "${actionType}"`);
  }
}
