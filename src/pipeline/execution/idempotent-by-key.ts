// The repeat class of the http-request action, "idempotent by key": every attempt carries the
// same Idempotency-Key, so the receiver can apply it once however often it arrives. What may have
// reached the receiver without an answer (timeout, 5xx, broken connection) is therefore retried
// with the job's bounded backoff; an answer that will not change (4xx) or a request the engine
// refuses to send ends the action `failed`. Pure: the table in idempotent-by-key.spec.ts pins it.
import {
  EgressTimeoutError,
  EgressTransportError,
  HostLimitedError,
  HttpStatusError,
  MissingSecretError,
  ResponseNotJsonError,
  ResponseTooLargeError,
  SavedSecretError,
} from '../../language/net/egress-errors';
import { EgressRefusedError } from '../../language/net/egress-policy';
import type { Failure } from '../../persistence/ledger/action-results.repository';

export interface HttpFailureDecision {
  /** true: the action ends `failed`; false: retried (then `dead` when the attempts run out). */
  final: boolean;
  failure: Failure;
}

/** 408 and 429 say "later", like a 5xx; every other 4xx would come back the same. */
const RETRIED_4XX = new Set([408, 429]);

const failure = (code: string, message: string, status: number | null = null): Failure => ({
  code,
  message,
  status,
  requestId: null,
});

/** The decision for a failure of an http-request, or undefined when it is not one of its own. */
export function decideHttpFailure(err: unknown): HttpFailureDecision | undefined {
  if (err instanceof EgressRefusedError) return { final: true, failure: failure(err.code, err.message) };
  if (err instanceof HttpStatusError) {
    const retried = err.status >= 500 || RETRIED_4XX.has(err.status);
    return { final: !retried, failure: failure('http_status', err.message, err.status) };
  }
  if (err instanceof EgressTimeoutError) return { final: false, failure: failure('timeout', err.message) };
  if (err instanceof EgressTransportError)
    return { final: false, failure: failure('transport_error', err.message) };
  if (err instanceof HostLimitedError) return { final: false, failure: failure('host_limited', err.message) };
  if (err instanceof ResponseTooLargeError)
    return { final: true, failure: failure('response_too_large', err.message) };
  if (err instanceof ResponseNotJsonError)
    return { final: true, failure: failure('response_not_json', err.message) };
  if (err instanceof SavedSecretError)
    return { final: true, failure: failure('saved_value_holds_secret', err.message) };
  if (err instanceof MissingSecretError)
    return { final: true, failure: failure('missing_secret', err.message) };
  return undefined;
}
