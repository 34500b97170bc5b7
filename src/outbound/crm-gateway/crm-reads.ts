// What a caller may read of the CRM: the GET operations of the one gateway (same budget, same
// retries, same metrics), and nothing that changes the CRM. A file that imports this face and not
// crm-writes.ts cannot write to the CRM: its imports say so, and dependency-cruiser holds it
// (gateway-only-through-its-faces, crm-writes-only-from-execution in .dependency-cruiser.cjs).
import { Injectable } from '@nestjs/common';
import { CrmGateway } from './crm-gateway.service';

export type { CallOptions } from './crm-gateway.service';

/** The gateway's reads. No private member: the gateway itself fits where a CrmReads is asked. */
@Injectable()
export class CrmReads {
  readonly listContacts: CrmGateway['listContacts'];
  readonly getContact: CrmGateway['getContact'];
  readonly listConversations: CrmGateway['listConversations'];
  readonly listMessages: CrmGateway['listMessages'];
  readonly listTags: CrmGateway['listTags'];
  readonly listStages: CrmGateway['listStages'];
  readonly listCustomFields: CrmGateway['listCustomFields'];
  readonly listUsers: CrmGateway['listUsers'];
  readonly listChannels: CrmGateway['listChannels'];
  readonly listMessageTemplates: CrmGateway['listMessageTemplates'];
  readonly listWebhooks: CrmGateway['listWebhooks'];

  constructor(gateway: CrmGateway) {
    // The gateway's operations are bound arrow properties: handing them over keeps `this`.
    this.listContacts = gateway.listContacts;
    this.getContact = gateway.getContact;
    this.listConversations = gateway.listConversations;
    this.listMessages = gateway.listMessages;
    this.listTags = gateway.listTags;
    this.listStages = gateway.listStages;
    this.listCustomFields = gateway.listCustomFields;
    this.listUsers = gateway.listUsers;
    this.listChannels = gateway.listChannels;
    this.listMessageTemplates = gateway.listMessageTemplates;
    this.listWebhooks = gateway.listWebhooks;
  }
}
