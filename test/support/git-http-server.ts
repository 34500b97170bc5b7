// A local git server for the deploy e2e (issue 31): bare repositories under `root`, served over
// HTTP by `git http-backend` run as a CGI per request from a tiny Node server (read-only: pushes
// go straight to the bare repository from a work clone). `stop()` and `start()` again on the same
// port stand for git going away and coming back.
import { spawn, execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class GitHttpServer {
  private server?: Server;
  port = 0;

  constructor(private readonly root: string) {}

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const [path, query = ''] = (req.url ?? '/').split('?');
      const cgi = spawn('git', ['http-backend'], {
        env: {
          PATH: process.env.PATH,
          GIT_PROJECT_ROOT: this.root,
          GIT_HTTP_EXPORT_ALL: '1',
          PATH_INFO: path,
          QUERY_STRING: query,
          REQUEST_METHOD: req.method ?? 'GET',
          CONTENT_TYPE: req.headers['content-type'] ?? '',
          REMOTE_ADDR: '127.0.0.1',
          ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        },
      });
      req.pipe(cgi.stdin);
      const chunks: Buffer[] = [];
      cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
      cgi.on('close', () => {
        const out = Buffer.concat(chunks);
        const split = out.indexOf('\r\n\r\n');
        const head = out.subarray(0, split).toString('utf8');
        let status = 200;
        const headers: Record<string, string> = {};
        for (const line of head.split('\r\n')) {
          const i = line.indexOf(':');
          if (i < 0) continue;
          const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
          if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
          else headers[k] = v;
        }
        res.writeHead(status, headers);
        res.end(out.subarray(split + 4));
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/** A bare repository `name`.git under `root` and a work clone to commit and push from. */
export function bareRepositoryWithClone(root: string, name: string, work: string): void {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', `${root}/${name}.git`]);
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  execFileSync('git', ['remote', 'add', 'origin', `${root}/${name}.git`], { cwd: work });
}
