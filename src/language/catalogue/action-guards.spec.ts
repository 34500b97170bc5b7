import type { Channel, Contact } from '@crm-rules/crm-contract';
import { applyActionLocally, guardAction } from './action-guards';
import type { ResolvedAction } from './catalogue';
import { contactFixture, VIP } from '../../pipeline/execution/contact-fixture.spec-support';

const contact = contactFixture;
const channel = (status: Channel['status']): Channel => ({
  id: 'ch1',
  name: 'Main line',
  platformType: 'MSG',
  status,
});

describe('guardAction', () => {
  it.each<[string, ResolvedAction, Partial<Contact>, string | undefined]>([
    ['react without an assignee', { type: 'react', emoji: '👍' }, { assigneeId: null }, 'needs_assignee'],
    [
      'a message without an assignee',
      { type: 'send-message', text: 'hi' },
      { assigneeId: null },
      'needs_assignee',
    ],
    ['react to a blocked contact', { type: 'react', emoji: '👍' }, { isBlocked: true }, 'contact_blocked'],
    [
      'a message to a blocked contact',
      { type: 'send-message', text: 'hi' },
      { isBlocked: true },
      'contact_blocked',
    ],
    [
      'a blocked contact without assignee (assigning would not help)',
      { type: 'react', emoji: '👍' },
      { isBlocked: true, assigneeId: null },
      'contact_blocked',
    ],
    [
      'opening a conversation with a blocked contact',
      { type: 'open-conversation', channelId: 'ch1' },
      { isBlocked: true },
      'contact_blocked',
    ],
    ['adding a tag the contact has', { type: 'add-tag', tagId: VIP.id }, {}, 'no_change'],
    ['removing a tag the contact lacks', { type: 'remove-tag', tagId: 'tag-other' }, {}, 'no_change'],
    ['moving to the current stage', { type: 'move-stage', stageId: 'stage-new' }, {}, 'no_change'],
    [
      'clearing a stage that is already clear',
      { type: 'move-stage', stageId: null },
      { stageId: null },
      'no_change',
    ],
    ['assigning the current assignee', { type: 'assign', memberId: 'm1' }, {}, 'no_change'],
    ['blocking a blocked contact', { type: 'block' }, { isBlocked: true }, 'no_change'],
    ['unblocking an unblocked contact', { type: 'unblock' }, {}, 'no_change'],
    ['react with an assignee', { type: 'react', emoji: '👍' }, {}, undefined],
    ['a message with an assignee', { type: 'send-message', text: 'hi' }, {}, undefined],
    ['adding a new tag', { type: 'add-tag', tagId: 'tag-new' }, {}, undefined],
    ['removing a present tag', { type: 'remove-tag', tagId: VIP.id }, {}, undefined],
    ['moving to another stage', { type: 'move-stage', stageId: 'stage-won' }, {}, undefined],
    ['clearing a stage', { type: 'move-stage', stageId: null }, {}, undefined],
    ['assigning someone else', { type: 'assign', memberId: 'm2' }, {}, undefined],
    ['blocking', { type: 'block' }, {}, undefined],
    ['unblocking a blocked contact', { type: 'unblock' }, { isBlocked: true }, undefined],
    [
      'creating a segment',
      { type: 'create-segment', name: 'Dormant', filters: {} },
      { isBlocked: true },
      undefined,
    ],
  ])('%s → %s', (_name, action, over, reason) => {
    const verdict = guardAction(action, contact(over));
    if (reason === undefined) expect(verdict).toEqual({ proceed: true });
    else expect(verdict).toMatchObject({ proceed: false, reason, detail: expect.any(String) });
  });

  it('skips opening a conversation on a disconnected channel', () => {
    const verdict = guardAction(
      { type: 'open-conversation', channelId: 'ch1', channel: channel('disconnected') },
      contact(),
    );
    expect(verdict).toMatchObject({ proceed: false, reason: 'channel_not_connected' });
  });

  it('opens a conversation on a connected channel', () => {
    const verdict = guardAction(
      { type: 'open-conversation', channelId: 'ch1', channel: channel('connected') },
      contact(),
    );
    expect(verdict).toEqual({ proceed: true });
  });
});

describe('applyActionLocally', () => {
  it('lets a message proceed after an assignment earlier in the same rule', () => {
    const unassigned = contact({ assigneeId: null });
    const react: ResolvedAction = { type: 'react', emoji: '👍' };
    expect(guardAction(react, unassigned)).toMatchObject({ reason: 'needs_assignee' });
    const assigned = applyActionLocally({ type: 'assign', memberId: 'm7' }, unassigned);
    expect(guardAction(react, assigned)).toEqual({ proceed: true });
  });

  it('turns a repeated write in one sequence into a no-op', () => {
    const once = applyActionLocally({ type: 'add-tag', tagId: 'tag-new' }, contact());
    expect(guardAction({ type: 'add-tag', tagId: 'tag-new' }, once)).toMatchObject({ reason: 'no_change' });
    const blocked = applyActionLocally({ type: 'block' }, contact());
    expect(guardAction({ type: 'send-message', text: 'hi' }, blocked)).toMatchObject({
      reason: 'contact_blocked',
    });
  });

  it.each<[ResolvedAction, Partial<Contact>]>([
    [{ type: 'remove-tag', tagId: VIP.id }, { tags: [] }],
    [{ type: 'move-stage', stageId: 'stage-won' }, { stageId: 'stage-won' }],
    [{ type: 'move-stage', stageId: null }, { stageId: null }],
    [{ type: 'unblock' }, { isBlocked: false }],
  ])('applies %o', (action, expected) => {
    expect(applyActionLocally(action, contact({ isBlocked: true }))).toMatchObject(expected);
  });

  it('leaves the input contact untouched', () => {
    const original = contact();
    applyActionLocally({ type: 'add-tag', tagId: 'tag-x' }, original);
    expect(original.tags).toEqual([VIP]);
  });
});
