// Each guard end to end: the contact and channel state comes from the sandbox through the
// gateway, the guard decides, and the CRM confirms that the skipped call would have failed
// (or, for no-ops, that applyActionLocally predicts the state the CRM returns).
import { applyActionLocally, guardAction } from '../../../src/language/catalogue/action-guards';
import type { ResolvedAction } from '../../../src/language/catalogue/catalogue';
import { CrmApiError } from '../../../src/language/crm-terms/crm-errors';
import type { CallOptions } from '../../../src/outbound/crm-gateway/crm-gateway.service';
import type { Contact } from '@crm-rules/crm-contract';
import { DEMO } from '../../support/demo-fixture';
import { uniquePhone } from '../../support/phones';
import { recordArrivals, useCrmSuite } from './crm-test-kit';

jest.setTimeout(60_000);

const OPTS: CallOptions = { priority: 'interactive' };

describe('action guards against the sandbox', () => {
  const crm = useCrmSuite('crm-guards', { limit: 300, windowMs: 60_000 });

  const newContact = (assigneeId?: string) =>
    crm.a.gateway.createContact({ name: 'Guard Test', phone: uniquePhone(), assigneeId }, OPTS);
  const crmCode = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof CrmApiError ? `${e.status} ${e.code}` : String(e)),
    );

  it('needs_assignee: skips a message to an unassigned contact, which the CRM would refuse', async () => {
    const contact = await newContact();
    expect(guardAction({ type: 'send-message', text: 'hi' }, contact)).toMatchObject({
      reason: 'needs_assignee',
    });
    expect(guardAction({ type: 'react', emoji: '👍' }, contact)).toMatchObject({ reason: 'needs_assignee' });

    const conversation = await crm.a.gateway.openConversation(
      { contactId: contact.id, channelId: DEMO.channels.main },
      OPTS,
    );
    const send = { conversationId: conversation.id, contactId: contact.id, text: 'hi' };
    expect(await crmCode(crm.a.gateway.sendMessage(send, OPTS))).toBe('422 contact_unassigned');

    // Assign first (round robin over GET /v1/users), then the same message goes through.
    const member = await crm.a.directory.nextRoundRobinMember();
    const assign: ResolvedAction = { type: 'assign', memberId: member.id };
    expect(guardAction(assign, contact)).toEqual({ proceed: true });
    const assigned = await crm.a.gateway.updateContact(contact.id, { assigneeId: member.id }, OPTS);
    expect(applyActionLocally(assign, contact).assigneeId).toBe(assigned.assigneeId);
    expect(guardAction({ type: 'send-message', text: 'hi' }, assigned)).toEqual({ proceed: true });
    expect(await crmCode(crm.a.gateway.sendMessage(send, OPTS))).toBe('ok');
  });

  it('contact_blocked: sends nothing to or on behalf of a blocked contact', async () => {
    const contact = await newContact(await firstMemberId());
    const conversation = await crm.a.gateway.openConversation(
      { contactId: contact.id, channelId: DEMO.channels.main },
      OPTS,
    );
    const blocked = await crm.a.gateway.blockContact(contact.id, OPTS);

    for (const action of [
      { type: 'send-message', text: 'hi' },
      { type: 'react', emoji: '👍' },
      { type: 'open-conversation', channelId: DEMO.channels.main },
    ] as ResolvedAction[]) {
      expect(guardAction(action, blocked)).toMatchObject({ proceed: false, reason: 'contact_blocked' });
    }
    const send = { conversationId: conversation.id, contactId: contact.id, text: 'hi' };
    expect(await crmCode(crm.a.gateway.sendMessage(send, OPTS))).toBe('422 contact_blocked');
  });

  it('channel_not_connected: does not open a conversation on a disconnected channel', async () => {
    const contact = await newContact(await firstMemberId());
    const channel = await crm.a.directory.resolveChannel('Old Line');
    const action: ResolvedAction = { type: 'open-conversation', channelId: channel.id, channel };
    expect(guardAction(action, contact)).toMatchObject({ reason: 'channel_not_connected' });
    const open = crm.a.gateway.openConversation({ contactId: contact.id, channelId: channel.id }, OPTS);
    expect(await crmCode(open)).toBe('422 channel_not_connected');

    const connected = await crm.a.directory.resolveChannel('Main WhatsApp');
    expect(
      guardAction({ type: 'open-conversation', channelId: connected.id, channel: connected }, contact),
    ).toEqual({
      proceed: true,
    });
  });

  it('no_change: skips no-op writes without a call, and predicts the state the CRM returns', async () => {
    let contact: Contact = await newContact();
    const sequence: ResolvedAction[] = [
      { type: 'add-tag', tagId: DEMO.tags.vip },
      { type: 'add-tag', tagId: DEMO.tags.vip },
      { type: 'move-stage', stageId: DEMO.stages.newLead },
      { type: 'move-stage', stageId: DEMO.stages.newLead },
      { type: 'remove-tag', tagId: DEMO.tags.dormant },
      { type: 'block' },
      { type: 'block' },
      { type: 'unblock' },
      { type: 'unblock' },
      { type: 'remove-tag', tagId: DEMO.tags.vip },
    ];
    const recorder = recordArrivals();
    const skipped: string[] = [];
    try {
      for (const action of sequence) {
        const verdict = guardAction(action, contact);
        if (!verdict.proceed) {
          skipped.push(`${action.type}:${verdict.reason}`);
          continue;
        }
        const predicted = applyActionLocally(action, contact);
        contact = await perform(action, contact.id);
        expect(summary(contact)).toEqual(summary(predicted));
      }
    } finally {
      recorder.stop();
    }
    expect(skipped).toEqual([
      'add-tag:no_change',
      'move-stage:no_change',
      'remove-tag:no_change',
      'block:no_change',
      'unblock:no_change',
    ]);
    expect(recorder.arrivals).toHaveLength(sequence.length - skipped.length);
  });

  async function firstMemberId(): Promise<string> {
    return (await crm.a.directory.resolveMember('ana@demo.test')).id;
  }

  function perform(action: ResolvedAction, id: string): Promise<Contact> {
    switch (action.type) {
      case 'add-tag':
        return crm.a.gateway.addTag(id, action.tagId, OPTS);
      case 'remove-tag':
        return crm.a.gateway.removeTag(id, action.tagId, OPTS);
      case 'move-stage':
        return crm.a.gateway.setStage(id, action.stageId, OPTS);
      case 'block':
        return crm.a.gateway.blockContact(id, OPTS);
      case 'unblock':
        return crm.a.gateway.unblockContact(id, OPTS);
      default:
        throw new Error(`not a contact write: ${action.type}`);
    }
  }
});

const summary = (c: Contact) => ({
  tagIds: c.tags.map((t) => t.id).sort(),
  stageId: c.stageId,
  isBlocked: c.isBlocked,
  assigneeId: c.assigneeId,
});
