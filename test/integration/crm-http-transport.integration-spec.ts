// The CRM client's transport errors against real sockets: a closed port and a server that never
// answers (the unit project opens no socket, so these live in the integration project).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CrmClient } from '../../src/outbound/crm-gateway/crm-client';
import { CrmTransportError, CrmUnreadableAnswerError } from '../../src/language/crm-terms/crm-errors';
import { CrmHttp } from '../../src/outbound/crm-gateway/crm-http';

describe('CrmHttp transport errors', () => {
  it('reports a refused connection as a retryable transport error without the API key', async () => {
    // Port 9 (discard) on localhost is closed on any sane test machine.
    const client = new CrmClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'sk_secret_value',
      timeoutMs: 2_000,
    });
    const err = await client.getContact('c0000000-0000-4000-8000-000000000001').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmTransportError);
    expect(err).toMatchObject({ kind: 'connection', operation: 'getContact', retryable: true });
    expect(String((err as Error).message)).not.toContain('sk_secret_value');
  });

  const serve = async (handler: (res: ServerResponse) => void) => {
    const server = createServer((_req, res) => handler(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, server };
  };

  it('reports a CRM that does not answer in time as a retryable timeout', async () => {
    const { url, server } = await serve(() => undefined); // never answers
    try {
      const client = new CrmClient({ baseUrl: url, apiKey: 'k', timeoutMs: 200 });
      const err = await client.getContact('c0000000-0000-4000-8000-000000000001').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CrmTransportError);
      expect(err).toMatchObject({ kind: 'timeout', operation: 'getContact', retryable: true });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('CrmHttp answers that cannot be read', () => {
  const serve = async (handler: (res: ServerResponse) => void) => {
    const server = createServer((_req, res) => handler(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, server };
  };

  const cutShort = (status: number, text = '{"id":"m1","text":"Hello"}') =>
    serve((res) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.write(text.slice(0, 5), () => res.socket?.destroy());
    });
  const notJson = (status: number) => serve((res) => res.writeHead(status).end('<html>proxy</html>'));

  it.each<[string, () => ReturnType<typeof serve>, 'POST' | 'GET', string]>([
    ['a write answered 201 with its body cut short', () => cutShort(201), 'POST', 'CrmUnreadableAnswerError'],
    [
      'a write answered 200 with a body that is not JSON',
      () => notJson(200),
      'POST',
      'CrmUnreadableAnswerError',
    ],
    ['a read answered 200 with its body cut short', () => cutShort(200), 'GET', 'CrmTransportError'],
    ['a read answered 200 with a body that is not JSON', () => notJson(200), 'GET', 'CrmTransportError'],
    [
      'a write answered 429 with its body cut short (still a refusal)',
      () => cutShort(429),
      'POST',
      'CrmApiError',
    ],
  ])('%s', async (_case, start, method, name) => {
    const { url, server } = await start();
    try {
      const http = new CrmHttp({ baseUrl: url, apiKey: 'k', timeoutMs: 5_000 });
      const err = await http
        .request('sendMessage', { method, path: '/v1/messages' })
        .catch((e: unknown) => e);
      expect((err as Error).name).toBe(name);
      if (name === 'CrmUnreadableAnswerError') expect(err).toBeInstanceOf(CrmUnreadableAnswerError);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
