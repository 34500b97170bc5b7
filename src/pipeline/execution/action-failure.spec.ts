import { UnknownNameError } from '../../language/crm-terms/directory-match';
import { describeFailure, isPermanentFailure } from './action-failure';
import { NoConversationError } from '../../language/catalogue/conversation-for';
import { apiError as anApiError } from '../../language/crm-terms/crm-errors.spec-support';

const apiError = (status: number, code: string) => anApiError(status, code, 'addTag');

describe('action failures', () => {
  it.each<[string, unknown, boolean, string]>([
    ['a 4xx the CRM will repeat', apiError(400, 'invalid_request'), true, 'invalid_request'],
    ['a 5xx', apiError(503, 'unavailable'), false, 'unavailable'],
    ['no conversation to write in', new NoConversationError('c1'), true, 'no_conversation'],
    ['an unknown tag name', new UnknownNameError('tag', 'vipp', []), true, 'unknown_name'],
    ['a bug of ours', new Error('boom'), false, 'internal_error'],
  ])('%s: permanent %p, recorded as %s', (_what, err, permanent, code) => {
    expect(isPermanentFailure(err)).toBe(permanent);
    expect(describeFailure(err).code).toBe(code);
  });
});
