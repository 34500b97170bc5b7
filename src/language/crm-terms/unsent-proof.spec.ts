import { apiError } from './crm-errors.spec-support';
import { CrmTransportError } from './crm-errors';
import { provablyUnsent } from './unsent-proof';

describe('provablyUnsent: may an at-most-once write be tried again without a lookup?', () => {
  const refused = (code: string) =>
    new CrmTransportError('sendMessage', 'connection', 'failed', {
      cause: Object.assign(new Error('fetch failed'), { cause: { code } }),
    });
  it.each<[string, unknown, boolean]>([
    ['a 429: refused before handling', apiError(429), true],
    ['a refused connection', refused('ECONNREFUSED'), true],
    ['an unknown host', refused('ENOTFOUND'), true],
    [
      'a call that never left: its budget wait ran out',
      new CrmTransportError('sendMessage', 'budget_timeout', 'x'),
      true,
    ],
    ['a reset mid-answer', refused('ECONNRESET'), false],
    ['a timeout', new CrmTransportError('sendMessage', 'timeout', 'x'), false],
    ['a 500', apiError(500), false],
    ['a 502', apiError(502), false],
    ['not a CRM error', new Error('boom'), false],
  ])('%s -> %s', (_case, err, expected) => {
    expect(provablyUnsent(err)).toBe(expected);
  });
});
