// Starts test/support/oidc-provider-server.mjs (a real OpenID Connect provider) in a child process and
// stops it by its pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../bench/private-redis';

export const OIDC_CLIENT = { id: 'crm-rules-console', secret: 'test-oidc-client-secret-0123456789' };

export interface RunningProvider {
  issuer: string;
  stop(): Promise<void>;
}

export async function providerPort(): Promise<number> {
  return freePort();
}

export async function startProvider(port: number, redirectUri: string): Promise<RunningProvider> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, 'oidc-provider-server.mjs'), String(port), redirectUri],
    {
      stdio: ['ignore', 'pipe', 'ignore'], // its stderr is development-mode warnings
    },
  );
  const issuer = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once('exit', (code) => reject(new Error(`OIDC provider exited with ${code}`)));
  });
  return {
    issuer,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
