// The write face of the CRM gateway: every operation that changes the CRM (POST, PUT, PATCH,
// DELETE), on top of the reads a write needs (a message lookup, a conversation to reuse). Same
// gateway, same budget. Who may import it is a boundary (crm-writes-only-from-execution): the
// action runner and the catalogue (by type) on the event path, plus a few named owners that are
// not on it (webhook registration at boot, a segment rule's CRM segment, the demo's contact).
import { Injectable } from '@nestjs/common';
import { CrmGateway } from './crm-gateway.service';
import { CrmReads } from './crm-reads';

export type { CallOptions } from './crm-gateway.service';

@Injectable()
export class CrmWrites extends CrmReads {
  readonly createContact: CrmGateway['createContact'];
  readonly updateContact: CrmGateway['updateContact'];
  readonly addTag: CrmGateway['addTag'];
  readonly removeTag: CrmGateway['removeTag'];
  readonly setStage: CrmGateway['setStage'];
  readonly blockContact: CrmGateway['blockContact'];
  readonly unblockContact: CrmGateway['unblockContact'];
  readonly openConversation: CrmGateway['openConversation'];
  readonly sendMessage: CrmGateway['sendMessage'];
  readonly reactToMessage: CrmGateway['reactToMessage'];
  readonly sendMessageTemplate: CrmGateway['sendMessageTemplate'];
  readonly createSegment: CrmGateway['createSegment'];
  readonly createWebhook: CrmGateway['createWebhook'];
  readonly deleteWebhook: CrmGateway['deleteWebhook'];

  constructor(gateway: CrmGateway) {
    super(gateway);
    this.createContact = gateway.createContact;
    this.updateContact = gateway.updateContact;
    this.addTag = gateway.addTag;
    this.removeTag = gateway.removeTag;
    this.setStage = gateway.setStage;
    this.blockContact = gateway.blockContact;
    this.unblockContact = gateway.unblockContact;
    this.openConversation = gateway.openConversation;
    this.sendMessage = gateway.sendMessage;
    this.reactToMessage = gateway.reactToMessage;
    this.sendMessageTemplate = gateway.sendMessageTemplate;
    this.createSegment = gateway.createSegment;
    this.createWebhook = gateway.createWebhook;
    this.deleteWebhook = gateway.deleteWebhook;
  }
}
