// Boots the engine (and, when no CRM is configured, the embedded sandbox it talks to over HTTP).
// Used by main.ts, the end-to-end tests and the benchmarks, so all three run the same wiring.
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { json, type Express } from 'express';
import { mountApiDocs } from './operator/access/api-docs';
import { RefuseNulPipe } from './operator/access/refuse-nul.pipe';
import type { RequestListener, Server } from 'node:http';
import { PinoLogger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { EngineLogger } from './operator/ops/engine-logger';
import { AppModule } from './app.module';
import type { AppConfig } from './runtime/config/app-config';
import { ConfigError } from './runtime/config/load-config';
import { holdsExampleRules } from './runtime/config/example-rules';
import { engineStartProblems } from './runtime/config/start-checks';
import { IntakeService } from './pipeline/intake/intake.service';
import { webhookFastPath } from './pipeline/intake/webhook-handler';
import { guardedListener } from './language/net/guarded-listener';
import { customHookFastPath } from './pipeline/intake/custom-hook-handler';
import { gitHookFastPath } from './pipeline/intake/git-hook-handler';
import { gitHookTarget } from './operator/ops/git-hook-target';
import { CustomIntakeService } from './pipeline/intake/custom-intake.service';
import { SubscriptionService, subscriptionKinds } from './pipeline/intake/subscription.service';
import { SubscriptionCheckSchedule } from './pipeline/intake/subscription-check.processor';
import { RuleSetService } from './runtime/rule-set/rule-set.service';
import {
  demoFixtureWithRecipeNames,
  startSandbox,
  RunningSandbox,
  SandboxOptions,
} from '@crm-rules/crm-sandbox';
import { findOrCreateDemoContact, sweepSegmentRulesNow } from './tooling/demo/demo-first-start';

export interface EngineOptions {
  /** Create a demo contact once everything is up, so a newcomer sees a rule fire. */
  demo?: boolean;
  /** The embedded sandbox also holds the tags, stages and members the recipes (recipes/) name. */
  recipeNames?: boolean;
  /** Options of the embedded sandbox (used when config.crm.baseUrl is unset). */
  sandbox?: SandboxOptions;
  /** Subscribe to the CRM's webhooks on start (default true when a receiver URL is known). */
  subscribe?: boolean;
  /** Use Nest's plain logger instead of pino (tests keep their output quiet). */
  quiet?: boolean;
  /** Where pino writes instead of stdout (tests that read the logs back). */
  logDestination?: DestinationStream;
}

export interface RunningEngine {
  app: INestApplication;
  url: string;
  config: AppConfig;
  sandbox?: RunningSandbox;
  close(): Promise<void>;
}

export async function startEngine(config: AppConfig, options: EngineOptions = {}): Promise<RunningEngine> {
  const problems = engineStartProblems(config, { exampleRules: holdsExampleRules(config.rulesDir) });
  if (problems.length) throw new ConfigError(problems);
  let sandbox: RunningSandbox | undefined;
  if (!config.crm.baseUrl) {
    sandbox = await startSandbox({
      port: config.sandbox.port,
      rateLimit: { limit: config.sandbox.rateLimit, windowMs: config.sandbox.rateWindowMs },
      ...(options.recipeNames ? { fixture: demoFixtureWithRecipeNames() } : {}),
      ...options.sandbox,
    });
    config.crm.baseUrl = sandbox.url;
    // The sandbox was born with this process: no call was made before, nothing to wait out.
    config.crm.budgetColdStart = false;
  }
  const app = await NestFactory.create(AppModule.forRoot(config, options.logDestination), {
    bodyParser: false,
    // Throw instead of process.exit: main.ts prints the reason, tests see the error.
    abortOnError: false,
    bufferLogs: !options.quiet,
    logger: options.quiet ? ['error'] : undefined,
  });
  if (!options.quiet) app.useLogger(new EngineLogger(await app.resolve(PinoLogger), {}));
  // req.ip (the credential throttle's key) is the socket's peer unless TRUST_PROXY names proxies.
  (app.getHttpAdapter().getInstance() as Express).set('trust proxy', config.access.trustProxy);
  app.use(json({ limit: '1mb' }));
  app.useGlobalPipes(new RefuseNulPipe());
  // No app.enableShutdownHooks(): main.ts owns SIGTERM/SIGINT and calls close() once. Nest's own
  // listener closed the app a second time (TypeORM: "Called end on pool more than once") and then
  // re-raised the signal, so a clean stop exited 143 instead of 0.
  mountApiDocs(app, config);
  if (config.role === 'all' || config.role === 'api') mountWebhookFastPath(app, config);
  guardRequestListeners(app.getHttpServer() as Server);
  boundHttpServer(app.getHttpServer() as Server, config);
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://${config.host}:${address.port}`;
  if (!config.publicUrl && sandbox) config.publicUrl = url; // the embedded sandbox delivers to us
  const logger = new Logger('Engine');
  logger.log(
    `engine listening on ${url} (role ${config.role}); CRM at ${config.crm.baseUrl}${sandbox ? ' (embedded sandbox)' : ''}`,
  );
  if (!sandbox && !config.crm.organizationId)
    logger.warn(
      'CRM_ORGANIZATION_ID is not set: the CRM budget is kept per API key, so another key of the same ' +
        'organization would not share it; set CRM_ORGANIZATION_ID on every engine of the organization',
    );

  if (options.subscribe !== false && config.publicUrl && (config.role === 'all' || config.role === 'api')) {
    const rules = app.get(RuleSetService);
    const subscriptions = app.get(SubscriptionService);
    await subscriptions.ensure(subscriptionKinds(rules.current()));
    // Checked again periodically: the CRM disables a subscription after failed deliveries.
    subscriptions.manage(() => subscriptionKinds(rules.current()));
    await app.get(SubscriptionCheckSchedule).start();
    // A reloaded rule set may listen to other kinds: the subscription follows it.
    rules.onChange(
      (set) =>
        void subscriptions
          .ensure(subscriptionKinds(set))
          .catch((err) => logger.warn(`webhook subscription not updated: ${err.message}`)),
    );
  }
  if (options.demo && sandbox) {
    // A failed demo must not take the engine down: it is a convenience, not a dependency.
    await findOrCreateDemoContact(app, logger).catch((err) =>
      logger.warn(`demo contact not created: ${err.message}`),
    );
    await sweepSegmentRulesNow(app, logger).catch((err) =>
      logger.warn(`demo sweep not started: ${err.message}`),
    );
  }

  let closing: Promise<void> | undefined;
  return {
    app,
    url,
    config,
    sandbox,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await sandbox?.close();
      })()),
  };
}

/**
 * A slow or flooding client must not hold the listener: the whole request (headers and body)
 * within HTTP_REQUEST_TIMEOUT_MS, at most HTTP_MAX_CONNECTIONS open. Answers (server-sent
 * events included) are not bounded by these.
 */
function boundHttpServer(server: Server, config: AppConfig): void {
  server.requestTimeout = config.http.requestTimeoutMs;
  server.headersTimeout = Math.min(config.http.requestTimeoutMs, 60_000);
  server.maxConnections = config.http.maxConnections;
}

/**
 * Every request listener (the fast paths and Express behind them) answers a throw with 500 and a
 * log line: no request, however malformed, becomes an uncaughtException that stops the process.
 */
function guardRequestListeners(server: Server): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const logger = new Logger('HttpServer');
  for (const listener of listeners)
    server.on(
      'request',
      guardedListener(listener, (err, req) =>
        logger.error(
          `request listener threw on ${req.method} ${JSON.stringify((req.url ?? '').slice(0, 200))}: ${
            err instanceof Error ? err.stack : String(err)
          }`,
        ),
      ),
    );
}

/** POST /webhooks/crm and /hooks/<source> are answered before Express sees the request (webhook-handler.ts). */
function mountWebhookFastPath(app: INestApplication, config: AppConfig): void {
  const server = app.getHttpServer() as Server;
  const [framework] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const opts = {
    limitBytes: config.webhookBodyLimitBytes,
    signatureHeader: config.crm.signatureHeader,
    timeoutMs: config.http.requestTimeoutMs,
  };
  // POST /hooks/<source> (custom event sources) takes the same road, with the same limits.
  const hooks = customHookFastPath(app.get(CustomIntakeService), opts, framework);
  // POST /hooks/git (the rules' push webhook) ahead of /hooks/<source>: no source can take its name.
  const withGit = config.rulesGit ? gitHookFastPath(gitHookTarget(app, config), opts, hooks) : hooks;
  server.on('request', webhookFastPath(app.get(IntakeService), opts, withGit));
}
