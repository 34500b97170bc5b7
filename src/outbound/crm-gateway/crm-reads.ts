// What a caller may read of the CRM: the GET operations of the one gateway (same budget, same
// retries, same metrics), and nothing that changes the CRM. A file that imports this face and not
// crm-writes.ts cannot write to the CRM: its imports say so, and dependency-cruiser holds it
// (gateway-only-through-its-faces, crm-writes-only-from-execution in .dependency-cruiser.cjs).
import { Injectable } from '@nestjs/common';
import { crmFace, READ_OPERATIONS } from './crm-face';
import { CrmGateway } from './crm-gateway.service';

export type { CallOptions } from './crm-gateway.service';

/** The gateway's reads (READ_OPERATIONS in crm-face.ts). */
@Injectable()
export class CrmReads extends crmFace(READ_OPERATIONS) {
  // Declared here so that Nest sees the gateway as this provider's dependency.
  constructor(gateway: CrmGateway) {
    super(gateway);
  }
}
