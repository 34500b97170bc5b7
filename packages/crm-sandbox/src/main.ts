// `npm run sandbox` (or the package's bin, `crm-sandbox`): the CRM sandbox on its own. The sandbox
// is a separate program from the engine, so it reads its own few variables here (all checked, all
// reported at once).
import { startSandbox, type SandboxOptions } from './start-sandbox';

type Env = Record<string, string | undefined>;

export function sandboxOptionsFromEnv(env: Env): { options: SandboxOptions; problems: string[] } {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
    return fallback;
  };
  const options: SandboxOptions = {
    port: int('SANDBOX_PORT', 4010, 0, 65535),
    host: env.SANDBOX_HOST || '127.0.0.1',
    fixture: env.SANDBOX_FIXTURE || undefined,
    rateLimit: {
      limit: int('SANDBOX_RATE_LIMIT', 300, 1, 1_000_000),
      windowMs: int('SANDBOX_RATE_WINDOW_MS', 60_000, 100, 3_600_000),
    },
    webhookRetryBaseMs: int('SANDBOX_WEBHOOK_RETRY_BASE_MS', 1000, 1, 3_600_000),
    webhookTimeoutMs: int('SANDBOX_WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
    log: !['0', 'false', 'no'].includes((env.SANDBOX_LOG ?? 'true').toLowerCase()),
  };
  return { options, problems };
}

async function main(): Promise<void> {
  const { options, problems } = sandboxOptionsFromEnv(process.env);
  if (problems.length) {
    console.error(`Invalid sandbox configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  const sandbox = await startSandbox(options);
  const { limit, windowMs } = options.rateLimit!;
  console.log(`CRM sandbox listening on ${sandbox.url}`);
  console.log(`  demo API key: sk_demo_full   (read-only: sk_demo_readonly, other org: sk_other_full)`);
  console.log(`  rate limit:   ${limit} requests per ${windowMs} ms per key`);
  console.log(`  try:          curl -H 'Authorization: Bearer sk_demo_full' ${sandbox.url}/v1/contacts`);
  console.log(`  control:      ${sandbox.url}/_sandbox  (see docs/SANDBOX.md)`);
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Runs the sandbox until SIGINT/SIGTERM: `node dist/main.js` or the package's bin, `crm-sandbox`. */
export function runSandboxMain(): void {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

if (require.main === module) runSandboxMain();
