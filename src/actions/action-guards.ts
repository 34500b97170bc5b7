// The CRM's domain rules and no-op elimination, checked before a call with the freshest
// contact state the engine has. A skipped action costs no budget and is recorded with its
// reason; nothing is dropped silently. Pure functions, no Nest.
import type { Channel, Contact, SegmentFilters, Uuid } from '../crm/crm-types';

/** A RuleAction (rules/rule-types.ts) with tag, stage, member and channel names resolved to ids. */
export type ResolvedAction =
  | { type: 'add-tag'; tagId: Uuid }
  | { type: 'remove-tag'; tagId: Uuid }
  | { type: 'move-stage'; stageId: Uuid | null }
  | { type: 'assign'; memberId: Uuid }
  | { type: 'react'; emoji: string }
  | { type: 'send-message'; text: string }
  | { type: 'open-conversation'; channelId: Uuid }
  | { type: 'block' }
  | { type: 'unblock' }
  | { type: 'create-segment'; name: string; filters: SegmentFilters };

export type SkipReason = 'needs_assignee' | 'contact_blocked' | 'channel_not_connected' | 'no_change';

export type GuardVerdict = { proceed: true } | { proceed: false; reason: SkipReason; detail: string };

const PROCEED: GuardVerdict = { proceed: true };
const skip = (reason: SkipReason, detail: string): GuardVerdict => ({ proceed: false, reason, detail });

/**
 * Decides whether `action` may be sent for `contact`. `ctx.channel` is the channel an
 * open-conversation action targets (from the directory's channel list); without it the
 * connection check cannot be made and the CRM has the last word.
 */
export function guardAction(
  action: ResolvedAction,
  contact: Contact,
  ctx: { channel?: Channel } = {},
): GuardVerdict {
  switch (action.type) {
    case 'react':
    case 'send-message':
      // crm-api.md 1: a blocked contact can neither send nor receive; a message needs an assignee.
      if (contact.isBlocked) return skip('contact_blocked', `contact ${contact.id} is blocked`);
      if (!contact.assigneeId) return skip('needs_assignee', `contact ${contact.id} has no assignee`);
      return PROCEED;
    case 'open-conversation':
      if (contact.isBlocked) return skip('contact_blocked', `contact ${contact.id} is blocked`);
      if (ctx.channel && ctx.channel.status !== 'connected') {
        return skip(
          'channel_not_connected',
          `channel ${ctx.channel.name} (${ctx.channel.id}) is ${ctx.channel.status}`,
        );
      }
      return PROCEED;
    case 'add-tag':
      return hasTag(contact, action.tagId)
        ? skip('no_change', `contact already has tag ${tagLabel(contact, action.tagId)}`)
        : PROCEED;
    case 'remove-tag':
      return hasTag(contact, action.tagId)
        ? PROCEED
        : skip('no_change', `contact does not have tag ${action.tagId}`);
    case 'move-stage':
      return (contact.stageId ?? null) === action.stageId
        ? skip(
            'no_change',
            action.stageId ? `contact is already on stage ${action.stageId}` : 'contact has no stage already',
          )
        : PROCEED;
    case 'assign':
      return contact.assigneeId === action.memberId
        ? skip('no_change', `contact is already assigned to ${action.memberId}`)
        : PROCEED;
    case 'block':
      return contact.isBlocked ? skip('no_change', 'contact is already blocked') : PROCEED;
    case 'unblock':
      return contact.isBlocked ? PROCEED : skip('no_change', 'contact is not blocked');
    case 'create-segment':
      return PROCEED; // a 409 (it exists) is handled by the runner as success, not guarded here
  }
}

/**
 * The contact as it will be after `action` succeeds, so a sequence of actions is guarded
 * against the state the previous ones produced (e.g. assign, then react).
 */
export function applyActionLocally(action: ResolvedAction, contact: Contact): Contact {
  switch (action.type) {
    case 'add-tag':
      if (hasTag(contact, action.tagId)) return contact;
      // The name and colour are unknown here; guards only look at ids.
      return { ...contact, tags: [...contact.tags, { id: action.tagId, name: '', color: '' }] };
    case 'remove-tag':
      return { ...contact, tags: contact.tags.filter((t) => t.id !== action.tagId) };
    case 'move-stage':
      return { ...contact, stageId: action.stageId };
    case 'assign':
      return { ...contact, assigneeId: action.memberId };
    case 'block':
      return { ...contact, isBlocked: true };
    case 'unblock':
      return { ...contact, isBlocked: false };
    case 'react':
    case 'send-message':
    case 'open-conversation':
    case 'create-segment':
      return contact;
  }
}

function hasTag(contact: Contact, tagId: Uuid): boolean {
  return contact.tags.some((t) => t.id === tagId);
}

function tagLabel(contact: Contact, tagId: Uuid): string {
  const name = contact.tags.find((t) => t.id === tagId)?.name;
  return name ? `${name} (${tagId})` : tagId;
}
