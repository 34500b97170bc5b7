import { CrmTransportError } from '../../language/crm-terms/crm-errors';
import { afterFailedAttempt, describeEventFailure } from './event-failure';
import { apiError } from '../../language/crm-terms/crm-errors.spec-support';

describe('afterFailedAttempt', () => {
  it.each([
    // attempts (this one included), max, permanent → next
    [1, 5, false, 'retry'],
    [4, 5, false, 'retry'],
    [5, 5, false, 'fail'],
    [7, 5, false, 'fail'],
    [1, 5, true, 'fail'],
    [1, 1, false, 'fail'],
  ] as const)('attempt %i of %i, permanent %s → %s', (attempts, max, permanent, next) => {
    expect(afterFailedAttempt(attempts, max, permanent)).toBe(next);
  });
});

describe('describeEventFailure', () => {
  it.each([
    [
      'a CRM 500',
      apiError(500, 'internal_error'),
      false,
      /getContact answered 500 internal_error: said internal_error \(request req-1\)/,
    ],
    ['a CRM 429', apiError(429, 'rate_limited'), false, /429 rate_limited/],
    ['a CRM 400', apiError(400, 'validation_error'), true, /400 validation_error/],
    ['a CRM 403', apiError(403, 'forbidden'), true, /403 forbidden/],
    [
      'a timeout',
      new CrmTransportError('getContact', 'timeout', 'no answer in 10000 ms'),
      false,
      /getContact timeout: no answer/,
    ],
    [
      'a Postgres data error',
      Object.assign(new Error('invalid input syntax'), { code: '22P02' }),
      true,
      /Postgres refused the event's data \(22P02\)/,
    ],
    [
      'a Postgres connection error',
      Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' }),
      false,
      /Error: connection refused/,
    ],
    ['a plain error', new TypeError('x is undefined'), false, /TypeError: x is undefined/],
    ['a thrown string', 'boom', false, /boom/],
  ])('%s', (_, err, permanent, message) => {
    const f = describeEventFailure(err);
    expect(f.permanent).toBe(permanent);
    expect(f.message).toMatch(message);
  });
});
