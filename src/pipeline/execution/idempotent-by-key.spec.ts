// What the runner does with each failure of an http-request: retried (same key) or final.
import {
  EgressTimeoutError,
  EgressTransportError,
  HostLimitedError,
  HttpStatusError,
  MissingSecretError,
  ResponseNotJsonError,
  ResponseTooLargeError,
} from '../../language/net/egress-errors';
import { EgressRefusedError } from '../../language/net/egress-policy';
import { decideHttpFailure } from './idempotent-by-key';

describe('decideHttpFailure', () => {
  it.each([
    ['500', new HttpStatusError(500), false, 'http_status', 500],
    ['502', new HttpStatusError(502), false, 'http_status', 502],
    ['503', new HttpStatusError(503), false, 'http_status', 503],
    ['408', new HttpStatusError(408), false, 'http_status', 408],
    ['429', new HttpStatusError(429), false, 'http_status', 429],
    ['400', new HttpStatusError(400), true, 'http_status', 400],
    ['401', new HttpStatusError(401), true, 'http_status', 401],
    ['404', new HttpStatusError(404), true, 'http_status', 404],
    ['409', new HttpStatusError(409), true, 'http_status', 409],
    ['422', new HttpStatusError(422), true, 'http_status', 422],
    ['304 (a redirect without Location)', new HttpStatusError(304), true, 'http_status', 304],
    ['a timeout', new EgressTimeoutError('no answer'), false, 'timeout', null],
    ['a reset connection', new EgressTransportError('reset', 'ECONNRESET'), false, 'transport_error', null],
    ['a host at its limit', new HostLimitedError('busy', 1000), false, 'host_limited', null],
    [
      'a refused address',
      new EgressRefusedError('egress_address_refused', 'x'),
      true,
      'egress_address_refused',
      null,
    ],
    [
      'a host off the list',
      new EgressRefusedError('egress_host_not_allowed', 'x'),
      true,
      'egress_host_not_allowed',
      null,
    ],
    [
      'too many redirects',
      new EgressRefusedError('egress_too_many_redirects', 'x'),
      true,
      'egress_too_many_redirects',
      null,
    ],
    ['an answer too large', new ResponseTooLargeError('big'), true, 'response_too_large', null],
    ['an answer not JSON', new ResponseNotJsonError('html'), true, 'response_not_json', null],
    ['a missing secret', new MissingSecretError('ERP_TOKEN'), true, 'missing_secret', null],
  ])('%s: final %p, code %s', (_what, err, final, code, status) => {
    expect(decideHttpFailure(err)).toEqual({
      final,
      failure: expect.objectContaining({ code, status }),
    });
  });

  it('leaves other failures to the runner', () => {
    expect(decideHttpFailure(new Error('db down'))).toBeUndefined();
  });

  it('names a missing secret, never a value', () => {
    expect(decideHttpFailure(new MissingSecretError('ERP_TOKEN'))?.failure.message).toBe(
      'secret ERP_TOKEN is not configured (HTTP_SECRET_ERP_TOKEN or HTTP_ACTION_SECRETS_FILE)',
    );
  });
});
