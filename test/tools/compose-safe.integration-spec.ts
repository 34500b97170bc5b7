// Issue 30 goal 8, compose safe by default; issue 31, no rules in the image. `docker compose
// config` needs Docker (not here): the file's shape is checked as YAML instead (Debian's
// docker-compose 1.29 `config` accepted it once, with a filled .env, on 2026-11-28).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

interface Service {
  ports?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  command?: string[];
}

describe('compose safe by default', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
  const services = compose.services;

  it('binds every published port to 127.0.0.1', () => {
    const ports = Object.values(services).flatMap((s) => s.ports ?? []);
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  it('takes the Postgres and Redis passwords from .env, never trust', () => {
    expect(JSON.stringify(services.postgres)).not.toContain('trust');
    expect(services.postgres.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(services.redis.command!.join(' ')).toMatch(/--requirepass \$\{REDIS_PASSWORD:\?/);
    expect(services.api.environment!.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
    expect(services.api.environment!.REDIS_URL).toContain('${REDIS_PASSWORD:?');
  });

  it('starts the sandbox only in the demo profile, and defaults the CRM to nothing', () => {
    expect(services.sandbox.profiles).toEqual(['demo']);
    expect(services.api.environment!.CRM_BASE_URL).toMatch(/^\$\{CRM_BASE_URL:\?/);
    expect(services.api.environment!.PUBLIC_URL).toMatch(/^\$\{PUBLIC_URL:\?/);
  });

  it('bakes no rules into the image and follows git or a mounted directory', () => {
    expect(read('Dockerfile')).not.toMatch(/^COPY rules/m);
    expect(services.worker.environment!.RULES_GIT_URL).toBeDefined();
  });

  it(".dockerignore mirrors .gitignore's personal-data files and .env", () => {
    const ignored = read('.dockerignore').split('\n');
    const personal = read('.gitignore')
      .split('\n')
      .filter((l) => /crm-contacts|^\.env$/.test(l));
    for (const line of personal) expect(ignored).toContain(line);
  });

  it('.env.example names every variable compose requires', () => {
    const required = [...read('docker-compose.yml').matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]);
    const example = read('.env.example');
    for (const name of new Set(required)) expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
  });
});
