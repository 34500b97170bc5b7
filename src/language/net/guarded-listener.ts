// The last line of defence of Node's HTTP server: whatever a request listener throws (or a
// promise it returns rejects with) is answered 500 and reported, never left to become an
// uncaughtException that stops the process (intake, admin, console and, with ROLE=all, the
// workers). Pure of Nest: the caller passes how to report.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

export type ListenerFailure = (err: unknown, req: IncomingMessage) => void;

function answer500(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy(); // half an answer is worse than none: the client sees a reset and retries
    return;
  }
  const text = '{"error":{"code":"internal_error","message":"internal error"}}';
  res.writeHead(500, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  res.end(text);
}

/** Wraps `listener` so no request can throw past it; `onError` hears every failure. */
export function guardedListener(listener: RequestListener, onError: ListenerFailure): RequestListener {
  return (req, res) => {
    // A client that resets mid-body makes the request emit 'error'; with no listener that is thrown.
    req.on('error', () => undefined);
    const fail = (err: unknown) => {
      try {
        onError(err, req);
      } finally {
        answer500(res);
      }
    };
    try {
      const result: unknown = listener(req, res);
      if (result instanceof Promise) result.catch(fail);
    } catch (err) {
      fail(err);
    }
  };
}

/** `decodeURIComponent` that answers undefined for a malformed escape (`%zz`, `%E0%A4%A`). */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
