// The ways an outbound request can fail short of an HTTP answer, apart from a refusal
// (egress-policy.ts): the http-request action's repeat decision (idempotent-by-key.ts) tells
// them apart. Pure classes, no I/O.

/** No answer within the deadline: the receiver may or may not have acted (retry with the same key). */
export class EgressTimeoutError extends Error {
  override readonly name = 'EgressTimeoutError';
}

/** The connection failed or broke (refused, reset, DNS failure). */
export class EgressTransportError extends Error {
  override readonly name = 'EgressTransportError';
  constructor(
    message: string,
    readonly errno?: string,
  ) {
    super(message);
  }
}

/** The answer is larger than HTTP_ACTION_MAX_RESPONSE_BYTES: reading stopped there. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
}

/**
 * No slot of the host's concurrency or rate limit within the short in-process wait: nothing was
 * sent; the runner defers the run (durably, like a window) by `retryInMs`, never fails it.
 */
export class HostLimitedError extends Error {
  override readonly name = 'HostLimitedError';
  constructor(
    message: string,
    readonly retryInMs: number,
  ) {
    super(message);
  }
}

/** The receiver answered with a status that is not 2xx (after redirects). */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(readonly status: number) {
    super(`the receiver answered ${status}`);
  }
}

/** `save:` needs a JSON answer and the answer is not JSON. */
export class ResponseNotJsonError extends Error {
  override readonly name = 'ResponseNotJsonError';
}

/** A `save:` value holds a configured secret's value (an echoing receiver): it is not stored. */
export class SavedSecretError extends Error {
  override readonly name = 'SavedSecretError';
  constructor(key: string, secretName: string) {
    super(`refused to store save key "${key.slice(0, 64)}": it holds the value of secret ${secretName}`);
  }
}

/** A header names `${secret.NAME}` and no such secret is configured (the name only, never a value). */
export class MissingSecretError extends Error {
  override readonly name = 'MissingSecretError';
  constructor(readonly secretName: string) {
    super(`secret ${secretName} is not configured (HTTP_SECRET_${secretName} or HTTP_ACTION_SECRETS_FILE)`);
  }
}
