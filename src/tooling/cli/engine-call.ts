// One call to the running engine's admin API for the CLI's engine commands (deploy, bulk): the
// token from ADMIN_TOKEN, the address from --url or HOST:PORT, the refusal's message printed.
import { loadConfig } from '../../runtime/config/load-config';
import type { Print } from './cli-io';

export interface EngineCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export async function callEngine(
  name: string,
  call: EngineCall,
  opts: { url?: string },
  format: (body: unknown) => string[],
  println: Print,
  eprintln: Print,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const config = loadConfig(env);
  if (!config.adminToken) {
    eprintln(`${name}: ADMIN_TOKEN is not set (it goes through the engine admin API)`);
    return 2;
  }
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const base = (opts.url ?? `http://${host}:${config.port}`).replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/admin/${call.path}`, {
      method: call.method,
      headers: { 'x-admin-token': config.adminToken, 'content-type': 'application/json' },
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    });
  } catch (err) {
    eprintln(
      `${name}: the engine is not reachable at ${base} (${(err as Error).message}); start it or pass --url`,
    );
    return 1;
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    eprintln(`${name}: ${res.status} ${typeof message === 'string' ? message : res.statusText}`);
    return 1;
  }
  for (const line of format(body)) println(line);
  return 0;
}
