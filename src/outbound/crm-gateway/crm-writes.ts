// The write face of the CRM gateway: every operation that changes the CRM (POST, PUT, PATCH,
// DELETE), with the reads a write needs (a message lookup, a conversation to reuse). Same
// gateway, same budget. Who may import it is a boundary (crm-writes-only-from-execution): the
// action runner and the catalogue (by type) on the event path, plus a few named owners that are
// not on it (webhook registration at boot, a segment rule's CRM segment, the demo's contact).
import { Injectable } from '@nestjs/common';
import { crmFace, READ_OPERATIONS, WRITE_OPERATIONS } from './crm-face';
import { CrmGateway } from './crm-gateway.service';

export type { CallOptions } from './crm-gateway.service';

/** Every operation of the gateway: WRITE_OPERATIONS and READ_OPERATIONS in crm-face.ts. */
@Injectable()
export class CrmWrites extends crmFace([...WRITE_OPERATIONS, ...READ_OPERATIONS]) {
  // Declared here so that Nest sees the gateway as this provider's dependency.
  constructor(gateway: CrmGateway) {
    super(gateway);
  }
}
