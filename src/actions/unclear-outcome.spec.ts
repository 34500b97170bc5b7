import { CrmApiError, CrmTransportError } from '../crm/crm-errors';
import { unclearOutcome } from './unclear-outcome';

const apiError = (status: number) =>
  new CrmApiError({ status, type: 't', code: 'c', message: 'm', operation: 'sendMessage' });
const connection = (code: string) =>
  new CrmTransportError('sendMessage', 'connection', 'failed', {
    cause: Object.assign(new Error('fetch failed'), { cause: { code } }),
  });

// Unclear: the CRM may have applied the write, so an at-most-once action looks it up instead of
// trying again. Clear: applied for sure (2xx, not an error) or refused for sure (4xx, unsent).
describe('unclearOutcome', () => {
  it.each<[string, unknown, boolean]>([
    ['a timeout', new CrmTransportError('sendMessage', 'timeout', 'x'), true],
    ['a 500', apiError(500), true],
    ['a 502 (a lost answer)', apiError(502), true],
    ['a reset mid-answer', connection('ECONNRESET'), true],
    ['a 429: refused before handling', apiError(429), false],
    ['a refused connection', connection('ECONNREFUSED'), false],
    [
      'a budget wait that ran out: never sent',
      new CrmTransportError('sendMessage', 'budget_timeout', 'x'),
      false,
    ],
    ['a 422 (the CRM refused the write)', apiError(422), false],
    ['not a CRM error', new Error('boom'), false],
  ])('%s -> %s', (_case, err, expected) => {
    expect(unclearOutcome(err)).toBe(expected);
  });
});
