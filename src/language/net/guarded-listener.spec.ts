import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodePathSegment, guardedListener } from './guarded-listener';

function fakeResponse(headersSent = false) {
  const res = {
    headersSent,
    status: 0,
    body: '',
    destroyed: false,
    writeHead(status: number) {
      this.status = status;
    },
    end(text: string) {
      this.body = text;
    },
    destroy() {
      this.destroyed = true;
    },
  };
  return res;
}
const fakeRequest = () => Object.assign(new EventEmitter(), { url: '/x' }) as unknown as IncomingMessage;

describe('guardedListener', () => {
  it('answers 500 and reports a listener that throws', () => {
    const seen: unknown[] = [];
    const res = fakeResponse();
    guardedListener(
      () => {
        throw new URIError('URI malformed');
      },
      (err) => seen.push(err),
    )(fakeRequest(), res as unknown as ServerResponse);
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'internal_error', message: 'internal error' } });
    expect(seen).toEqual([expect.any(URIError)]);
  });

  it('answers 500 when the promise a listener returns rejects', async () => {
    const res = fakeResponse();
    const seen: unknown[] = [];
    const listener = (() => Promise.reject(new Error('late'))) as never;
    guardedListener(listener, (err) => seen.push(err))(fakeRequest(), res as unknown as ServerResponse);
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.status).toBe(500);
    expect(seen).toHaveLength(1);
  });

  it('drops the connection when the answer had already started', () => {
    const res = fakeResponse(true);
    guardedListener(
      () => {
        throw new Error('midway');
      },
      () => undefined,
    )(fakeRequest(), res as unknown as ServerResponse);
    expect(res.destroyed).toBe(true);
    expect(res.status).toBe(0);
  });

  it('listens for request errors, so a reset mid-body is not thrown', () => {
    const req = fakeRequest();
    guardedListener(
      () => undefined,
      () => undefined,
    )(req, fakeResponse() as unknown as ServerResponse);
    expect(() => req.emit('error', new Error('aborted'))).not.toThrow();
  });
});

describe('decodePathSegment', () => {
  it.each([
    ['shop', 'shop'],
    ['sh%6Fp', 'shop'],
    ['%zz', undefined],
    ['%E0%A4%A', undefined],
    ['%', undefined],
    ['%C0%AF', undefined],
  ])('%s → %s', (segment, expected) => {
    expect(decodePathSegment(segment)).toBe(expected);
  });
});
