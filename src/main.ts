import 'reflect-metadata';
import { loadConfig, ConfigError } from './runtime/config/load-config';
import { demoAdminToken, forgetPreviousSandbox, runsEmbeddedDemo } from './tooling/demo/embedded-demo';
import { startBanner } from './tooling/demo/start-banner';
import { startEngine } from './engine';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const demo = runsEmbeddedDemo(config);
  // Before anything else: a start refused here (production, a database the demo did not mark) has
  // written nothing, not even the demo's admin token.
  if (demo) await forgetPreviousSandbox(config);
  const admin = demoAdminToken(config);
  const engine = await startEngine(config, { demo, recipeNames: demo });
  // On the terminal, not in the log: the demo token is shown to whoever started the demo.
  const banner = startBanner({ url: engine.url, role: config.role, admin });
  if (banner.length) process.stdout.write(`\n${banner.join('\n')}\n\n`);
  const shutdown = async (signal: string) => {
    process.stderr.write(`received ${signal}, shutting down\n`);
    try {
      await engine.close();
    } catch (err) {
      process.stderr.write(`shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`engine failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
