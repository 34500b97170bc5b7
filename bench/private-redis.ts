// A redis-server of its own on a free port, for what must never be done to a shared Redis
// (FLUSHALL, restart, kill): used by the chaos suite (bench/chaos.ts) and the e2e tests
// (test/outbound/crm-gateway/budget-scope, the OIDC provider's free port). Test and bench code,
// not the engine's: it lives in bench/ because the benches run compiled from dist/bench, where
// test/ is not built, while the tests may import bench/. No persistence, like a restart that
// loses everything; `noeviction`, as docs/RELIABILITY.md asks of a production Redis. Ended by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import Redis from 'ioredis';

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class PrivateRedis {
  private child?: ChildProcess;

  constructor(
    readonly port: number,
    private readonly binary = 'redis-server',
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (again, on the same port after stop()) and resolves once it answers PING. */
  async start(timeoutMs = 10_000): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.child = spawn(this.binary, [...args, '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
    const deadline = Date.now() + timeoutMs;
    while (!(await this.answers())) {
      if (Date.now() > deadline || this.child.exitCode !== null)
        throw new Error(`private ${this.binary} on port ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGKILL: everything in it is lost, as in a crash. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  flushall(): Promise<void> {
    return this.withClient(async (c) => void (await c.flushall()));
  }

  private answers(): Promise<boolean> {
    return this.withClient(async (c) => (await c.ping()) === 'PONG').catch(() => false);
  }

  private async withClient<T>(fn: (client: Redis) => Promise<T>): Promise<T> {
    const client = new Redis(this.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await fn(client);
    } finally {
      client.disconnect();
    }
  }
}

/** A started PrivateRedis on a free port. */
export async function startPrivateRedis(binary?: string): Promise<PrivateRedis> {
  const redis = new PrivateRedis(await freePort(), binary);
  await redis.start();
  return redis;
}
