// Turns one resolved action into the one gateway call that performs it.
import type { CallOptions, CrmGateway } from '../crm/crm-gateway.service';
import type { Contact } from '../crm/crm-types';
import type { ResolvedAction } from './action-guards';

export interface ExecutionContext {
  contact: Contact;
  /** message.created runs: the message the rule reacts to. */
  message?: { id: string; conversationId: string; messagePlatformId: string };
}

/** Returns the contact after the write when the CRM tells us (tag, block, stage, assign calls). */
export async function executeAction(
  gateway: CrmGateway,
  action: ResolvedAction,
  ctx: ExecutionContext,
  opts: CallOptions,
): Promise<Contact | undefined> {
  const id = ctx.contact.id;
  switch (action.type) {
    case 'add-tag':
      return gateway.addTag(id, action.tagId, opts);
    case 'remove-tag':
      return gateway.removeTag(id, action.tagId, opts);
    case 'move-stage':
      return gateway.setStage(id, action.stageId, opts);
    case 'assign':
      return gateway.updateContact(id, { assigneeId: action.memberId }, opts);
    case 'block':
      return gateway.blockContact(id, opts);
    case 'unblock':
      return gateway.unblockContact(id, opts);
    case 'react': {
      if (!ctx.message) throw new MissingMessageError('react');
      await gateway.reactToMessage(
        {
          conversationId: ctx.message.conversationId,
          contactId: id,
          messagePlatformId: ctx.message.messagePlatformId,
          emoji: action.emoji,
        },
        opts,
      );
      return undefined;
    }
    case 'send-message': {
      if (!ctx.message) throw new MissingMessageError('send-message');
      await gateway.sendMessage(
        { conversationId: ctx.message.conversationId, contactId: id, text: action.text },
        opts,
      );
      return undefined;
    }
    case 'open-conversation':
      await gateway.openConversation({ contactId: id, channelId: action.channelId }, opts);
      return undefined;
    case 'create-segment':
      await gateway.createSegment({ name: action.name, filters: action.filters }, opts);
      return undefined;
  }
}

/** A messaging action on a trigger that carries no message (e.g. a segment sweep). */
export class MissingMessageError extends Error {
  constructor(readonly actionType: string) {
    super(`${actionType} needs a message to answer; the trigger carries none`);
  }
}
