import 'reflect-metadata';
import { loadConfig, ConfigError } from './config/load-config';
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
  const engine = await startEngine(config, { demo: !config.crm.baseUrl });
  const shutdown = async (signal: string) => {
    process.stderr.write(`received ${signal}, shutting down\n`);
    await engine.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`engine failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
