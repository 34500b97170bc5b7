// A TCP proxy in front of a real server, so a test can cut the connection ("Postgres is down")
// and restore it, without stopping the shared server other tests use.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let isUp = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!isUp) return client.destroy();
    const upstream = net.connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    down() {
      isUp = false;
      for (const s of sockets) s.destroy();
    },
    up() {
      isUp = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
