// A CRM error answer as the specs build it: the status and code are what decisions read; the rest
// (type, message, request id) is fixed so a described failure is predictable.
import { CrmApiError } from './crm-errors';

export const apiError = (status: number, code = 'error', operation = 'getContact') =>
  new CrmApiError({
    status,
    type: 'error',
    code,
    message: `said ${code}`,
    requestId: 'req-1',
    operation,
  });
