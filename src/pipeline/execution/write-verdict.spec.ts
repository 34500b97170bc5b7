// Every error class the action runner can meet after an at-most-once write's `running` mark, and
// what the core's verdict (language/catalogue/write-verdict.ts) makes of the write; and which
// recorded failures retry-dead may run again. Here, beside the runner whose errors it lists.
import { QueryFailedError } from 'typeorm';
import { UnknownNameError } from '../../language/crm-terms/directory-match';
import {
  CrmApiError,
  CrmTransportError,
  CrmUnreadableAnswerError,
  InvalidCrmIdError,
} from '../../language/crm-terms/crm-errors';
import { describeFailure } from './action-failure';
import { NoConversationError } from '../../language/catalogue/conversation-for';
import { MissingMessageError } from '../../language/catalogue/message-trigger';
import { LeaseLostError } from './contact-lease';
import { TransientActionError } from './run-repositories';
import { retryRefusal, verdictAfterRunning, type WriteVerdict } from '../../language/catalogue/write-verdict';

const apiError = (status: number) =>
  new CrmApiError({ status, type: 't', code: `http_${status}`, message: 'm', operation: 'sendMessage' });
const connection = (code: string) =>
  new CrmTransportError('sendMessage', 'connection', 'failed', {
    cause: Object.assign(new Error('fetch failed'), { cause: { code } }),
  });
const pgError = (code: string) =>
  Object.assign(new QueryFailedError('UPDATE action_results ...', [], new Error('refused')), { code });

describe('verdictAfterRunning', () => {
  it.each<[string, unknown, WriteVerdict]>([
    // Proven not applied: the only outcomes that may make the action pending / failed / dead.
    ['429: refused before handling', apiError(429), 'not_applied'],
    ['400 validation_failed', apiError(400), 'not_applied'],
    ['401 bad key', apiError(401), 'not_applied'],
    ['403 insufficient scope', apiError(403), 'not_applied'],
    ['404 unknown id', apiError(404), 'not_applied'],
    ['409 conflict', apiError(409), 'not_applied'],
    ['422 refused', apiError(422), 'not_applied'],
    [
      'an id that is not a uuid (never sent)',
      new InvalidCrmIdError('sendMessage', 'id', '..'),
      'not_applied',
    ],
    ['connection refused', connection('ECONNREFUSED'), 'not_applied'],
    ['host unknown', connection('ENOTFOUND'), 'not_applied'],
    ['DNS retry later', connection('EAI_AGAIN'), 'not_applied'],
    ['host unreachable', connection('EHOSTUNREACH'), 'not_applied'],
    ['network unreachable', connection('ENETUNREACH'), 'not_applied'],
    ['budget wait ran out', new CrmTransportError('sendMessage', 'budget_timeout', 'x'), 'not_applied'],
    ['no triggering message (react)', new MissingMessageError('react'), 'not_applied'],
    ['no conversation to write in', new NoConversationError('c1'), 'not_applied'],
    ['an unknown channel name', new UnknownNameError('channel', 'sms', []), 'not_applied'],
    // A 2xx: applied, whatever its body.
    ['2xx, body cut short', new CrmUnreadableAnswerError('sendMessage', 201), 'applied'],
    [
      '2xx, body not JSON',
      new CrmUnreadableAnswerError('sendMessage', 200, { cause: new SyntaxError('x') }),
      'applied',
    ],
    // Everything else: looked up.
    ['timeout', new CrmTransportError('sendMessage', 'timeout', 'x'), 'unclear'],
    ['500', apiError(500), 'unclear'],
    ['502 lost answer', apiError(502), 'unclear'],
    ['503', apiError(503), 'unclear'],
    ['408 from a proxy', apiError(408), 'unclear'],
    ['499 from a proxy', apiError(499), 'unclear'],
    ['reset after the request was written', connection('ECONNRESET'), 'unclear'],
    ['socket closed mid-answer', connection('UND_ERR_SOCKET'), 'unclear'],
    ['connection error without a code', connection(''), 'unclear'],
    ['serialization failure on the success mark (40001)', pgError('40001'), 'unclear'],
    ['lock timeout on the success mark (55P03)', pgError('55P03'), 'unclear'],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect'), 'unclear'],
    ['lease lost after the call', new LeaseLostError('lost'), 'unclear'],
    ['a transient action error', new TransientActionError('x'), 'unclear'],
    [
      'an unexpected answer shape (TypeError)',
      new TypeError('Cannot read properties of undefined'),
      'unclear',
    ],
    ['a bug of ours', new Error('boom'), 'unclear'],
    ['a thrown string', 'boom', 'unclear'],
    ['undefined', undefined, 'unclear'],
  ])('%s -> %s', (_case, err, verdict) => {
    expect(verdictAfterRunning(err)).toBe(verdict);
  });
});

describe('retryRefusal (retry-dead)', () => {
  const started = new Date('2026-11-26T00:00:00Z');
  const row = (over: Partial<Parameters<typeof retryRefusal>[0]>) => ({
    atMostOnce: true,
    startedAt: started,
    errorCode: null,
    httpStatus: null,
    ...over,
  });
  it.each<[string, Parameters<typeof retryRefusal>[0], boolean]>([
    [
      'a state-checked write, whatever its error',
      row({ atMostOnce: false, errorCode: 'internal_error' }),
      true,
    ],
    ['never marked running', row({ startedAt: null, errorCode: 'internal_error' }), true],
    ['429', row({ errorCode: 'rate_limit_exceeded', httpStatus: 429 }), true],
    ['422', row({ errorCode: 'validation_failed', httpStatus: 422 }), true],
    ['budget timeout', row({ errorCode: 'budget_timeout' }), true],
    ['connection refused', row({ errorCode: 'connection_refused' }), true],
    ['no conversation', row({ errorCode: 'no_conversation' }), true],
    [
      'internal_error (e.g. the success mark refused, before this rule)',
      row({ errorCode: 'internal_error' }),
      false,
    ],
    ['transport_error (reset, timeout)', row({ errorCode: 'transport_error' }), false],
    ['500', row({ errorCode: 'internal_error', httpStatus: 500 }), false],
    ['unreadable 2xx', row({ errorCode: 'unreadable_answer', httpStatus: 201 }), false],
    ['interrupted', row({ errorCode: 'interrupted' }), false],
    ['nothing recorded', row({}), false],
  ])('%s: may retry %p', (_case, r, allowed) => {
    expect(retryRefusal(r) === undefined).toBe(allowed);
  });

  it('recorded codes of proven-unsent transport failures are the ones retry-dead accepts', () => {
    const refused = new CrmTransportError('sendMessage', 'connection', 'x', {
      cause: Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
    });
    const budget = new CrmTransportError('sendMessage', 'budget_timeout', 'x');
    for (const err of [refused, budget])
      expect(retryRefusal(row({ errorCode: describeFailure(err).code }))).toBeUndefined();
    expect(retryRefusal(row({ errorCode: describeFailure(connection('ECONNRESET')).code }))).toBeDefined();
  });
});
