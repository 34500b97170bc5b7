// A redis-server of the test's own, on a free port: for what must never be done to the shared
// Redis (FLUSHALL, restart). Started and stopped by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import Redis from 'ioredis';
import { eventually } from './polling';

export interface PrivateRedis {
  url: string;
  port: number;
  /** Connected admin client (FLUSHALL, CONFIG...). */
  admin: Redis;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPrivateRedis(binary = 'redis-server'): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const admin = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
  await eventually(async () => {
    await admin.connect().catch(() => undefined);
    return (await admin.ping()) === 'PONG';
  }, 10_000);
  return {
    url,
    port,
    admin,
    stop: async () => {
      admin.disconnect();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
