// The egress client against a real local server: the connection goes to the address that was
// checked (a resolver's later answer cannot swap it), every answer of a mixed resolver is
// checked, the size cap cuts a streamed answer, redirects are counted and checked, and secret
// headers stay with the first origin.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EgressClient, type Resolve } from './egress-client';
import { EgressTimeoutError, ResponseTooLargeError } from '../../language/net/egress-errors';
import { egressPolicy } from '../../language/net/egress-policy';

const noGate = async () => async () => undefined;

describe('EgressClient', () => {
  let server: Server;
  let port: number;
  const seen: IncomingMessage[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      const path = req.url ?? '/';
      if (path === '/big') {
        // Chunked, no content-length: only counting the stream can stop it.
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 64; i++) res.write('x'.repeat(1024));
        return res.end();
      }
      if (path.startsWith('/hop/')) {
        const n = Number(path.slice(5));
        res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : '/done' });
        return res.end();
      }
      if (path.startsWith('/redir/')) {
        res.writeHead(Number(path.slice(7)), { location: '/echo' });
        return res.end();
      }
      if (path === '/echo') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () =>
          res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString() })),
        );
        return;
      }
      if (path === '/elsewhere') {
        res.writeHead(307, { location: `http://other.test:${port}/done` });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ host: req.headers.host, auth: req.headers.authorization ?? null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((r) => server.close(() => r())));

  const client = (resolve: Resolve, maxResponseBytes = 4096, maxRedirects = 3) =>
    new EgressClient(
      egressPolicy({ allowedHosts: ['erp.test', 'other.test'], allowPrivate: ['127.0.0.2/32'] }),
      { maxRedirects, maxResponseBytes },
      noGate,
      resolve,
    );
  const get = (c: EgressClient, path: string, host = 'erp.test') =>
    c.send({
      method: 'GET',
      url: `http://${host}:${port}${path}`,
      headers: {},
      originHeaders: { authorization: 'Bearer secret' },
      timeoutMs: 10_000,
    });

  it('connects to the address it checked, whatever the resolver answers next (rebinding)', async () => {
    const answers = [[{ address: '127.0.0.2', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const res = await get(
      client(async () => answers.shift()!),
      '/x',
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ host: `erp.test:${port}`, auth: 'Bearer secret' });
    // erp.test is in no DNS: the socket can only have connected through the pinned lookup.
    expect(answers).toHaveLength(1);
  });

  it('refuses a host when any of its addresses is not public', async () => {
    const mixed: Resolve = async () => [
      { address: '127.0.0.2', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(get(client(mixed), '/x')).rejects.toMatchObject({
      code: 'egress_address_refused',
      message: expect.stringMatching(/10\.0\.0\.7 \(resolved from erp\.test\): private/),
    });
  });

  it('cuts a streamed answer past the size cap', async () => {
    const pinned: Resolve = async () => [{ address: '127.0.0.2', family: 4 }];
    await expect(get(client(pinned, 2048), '/big')).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it.each([
    [3, 3, 200],
    [3, 4, 'egress_too_many_redirects'],
    [0, 1, 'egress_too_many_redirects'],
  ])('with at most %d redirects, a chain of %d ends %p', async (max, hops, outcome) => {
    const pinned: Resolve = async () => [{ address: '127.0.0.2', family: 4 }];
    const sent = get(client(pinned, 4096, max), `/hop/${hops - 1}`);
    if (outcome === 200) expect((await sent).status).toBe(200);
    else await expect(sent).rejects.toMatchObject({ code: outcome });
  });

  it('drops the secret headers when a redirect leaves the first origin', async () => {
    const pinned: Resolve = async () => [{ address: '127.0.0.2', family: 4 }];
    const res = await get(client(pinned), '/elsewhere');
    expect(JSON.parse(res.body.toString())).toEqual({ host: `other.test:${port}`, auth: null });
  });

  const pinned: Resolve = async () => [{ address: '127.0.0.2', family: 4 }];
  const post = (c: EgressClient, path: string, headers: Record<string, string> = {}) =>
    c.send({
      method: 'POST',
      url: `http://erp.test:${port}${path}`,
      headers,
      body: '{"a":1}',
      timeoutMs: 10_000,
    });

  // Finding: a POST answered 301/302/303 was re-sent as a bodyless GET (and recorded succeeded).
  it.each([
    [301, 'egress_redirect_refused'],
    [302, 'egress_redirect_refused'],
    [303, 'egress_redirect_refused'],
    [307, 'POST {"a":1}'],
    [308, 'POST {"a":1}'],
  ])('a POST answered %d: %s (never re-sent as a bodyless GET)', async (status, outcome) => {
    const before = seen.length;
    const sent = post(client(pinned), `/redir/${status}`);
    if (outcome.startsWith('POST')) {
      const echo = JSON.parse((await sent).body.toString());
      expect(`${echo.method} ${echo.body}`).toBe(outcome);
    } else {
      await expect(sent).rejects.toMatchObject({ code: outcome, message: expect.stringMatching(/307\/308/) });
      expect(seen.slice(before).map((r) => r.method)).toEqual(['POST']);
    }
  });

  it('follows a GET answered 301 as a GET', async () => {
    const res = await get(client(pinned), '/redir/301');
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'GET', body: '' });
  });

  // Finding: a header template rendering outside Latin-1 threw ERR_INVALID_CHAR, retried 5 times.
  it.each([['café☃'], ['line\u0000break'], ['bell\u0007']])(
    'refuses a header value that can never be sent (%j) at once, permanently, sending nothing',
    async (value) => {
      const before = seen.length;
      await expect(post(client(pinned), '/echo', { 'x-name': value })).rejects.toMatchObject({
        name: 'EgressRefusedError',
        code: 'egress_header_invalid',
        message: expect.not.stringContaining(value),
      });
      expect(seen.length).toBe(before);
    },
  );

  it('sends a Latin-1 header value (café)', async () => {
    const res = await post(client(pinned), '/echo', { 'x-name': 'café' });
    expect(res.status).toBe(200);
  });

  // Finding: the DNS lookup was not bounded by the request deadline.
  it('gives up a DNS lookup that never answers at the request deadline', async () => {
    const never: Resolve = () => new Promise(() => undefined);
    const sent = client(never).send({
      method: 'GET',
      url: `http://erp.test:${port}/x`,
      headers: {},
      timeoutMs: 200,
    });
    await expect(sent).rejects.toBeInstanceOf(EgressTimeoutError);
  });
});
