// The operator console at /console (ROLE all or api): server-rendered pages, small scripts,
// live numbers over server-sent events. Behind the admin token (a session cookie after login).
import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { urlencoded } from 'express';
import { AdminModule } from '../admin/admin.module';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { LedgerModule } from '../../persistence/ledger/ledger.module';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { RuleSetModule } from '../../runtime/rule-set/rule-set.module';
import { ConsoleAuth } from './auth/console-auth';
import { ConsoleSessionsModule } from '../access/console-sessions.module';
import { CredentialThrottle } from '../access/credential-throttle.service';
import { LOGIN_THROTTLE } from '../access/credential-throttle';
import { ConsoleAssetsController, FaviconController } from './console-assets.controller';
import { ConsoleAuthController } from './console-auth.controller';
import { ConsoleDeployController } from './console-deploy.controller';
import { ConsoleOidcController } from './console-oidc.controller';
import { OidcSignIn } from './auth/oidc-sign-in.service';
import { ConsoleFailuresController } from './console-failures.controller';
import { ConsolePagesController } from './console-pages.controller';
import { ConsoleEventsController } from './console-events.controller';
import { ConsoleBulkRunsController } from './console-bulk-runs.controller';
import { BulkRunsModule } from '../../pipeline/bulk-runs/bulk-runs.module';
import { EventExplainModule } from '../../pipeline/matching/event-explain.module';
import { ConsoleResponder } from './console-responder';
import { ConsoleRulesController } from './console-rules.controller';
import { ConsoleRulePageController } from './console-rule-page.controller';
import { ConsoleManualRunController } from './console-manual-run.controller';
import { ManualRunsModule } from '../../pipeline/admission/manual-runs/manual-runs.module';
import { ConsoleStreamController } from './console-stream.controller';
import { ContactJournalModule } from '../../persistence/journal/contact-journal.module';
import { AlertsService } from './alerts/alerts.service';
import { BudgetFeed } from './live/budget-feed.service';
import { OverviewFeed } from './live/overview-feed.service';
import { RuleControlsModule } from '../../runtime/rule-controls/rule-controls.module';
import { ContactMirrorModule } from '../../pipeline/contact-mirror/contact-mirror.module';

const CONTROLLERS = [
  ConsoleAssetsController,
  ConsoleAuthController,
  ConsoleOidcController,
  ConsolePagesController,
  ConsoleEventsController,
  ConsoleBulkRunsController,
  ConsoleRulesController,
  ConsoleManualRunController,
  ConsoleRulePageController,
  ConsoleFailuresController,
  ConsoleStreamController,
  ConsoleDeployController,
];

@Module({
  imports: [
    AdminModule,
    QueuesModule,
    LedgerModule,
    CrmGatewayModule,
    RuleSetModule,
    RuleControlsModule,
    ContactJournalModule,
    ConsoleSessionsModule,
    ManualRunsModule,
    ContactMirrorModule,
    EventExplainModule,
    BulkRunsModule,
  ],
  controllers: [...CONTROLLERS, FaviconController],
  providers: [ConsoleAuth, OidcSignIn, ConsoleResponder, OverviewFeed, BudgetFeed, AlertsService],
})
export class ConsoleModule implements NestModule {
  constructor(
    private readonly auth: ConsoleAuth,
    throttle: CredentialThrottle,
    alerts: AlertsService,
  ) {
    // Bursts of wrong credentials at any door reach the operators' alert channel.
    throttle.onBurst = (message) => alerts.notify('credential-failures', LOGIN_THROTTLE.alertEvery, message);
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(
        cookieParser(),
        urlencoded({ extended: false, limit: '16kb' }),
        (req: never, res: never, next: (err?: unknown) => void) =>
          void this.auth.use(req, res, next).catch(next),
      )
      .forRoutes(...CONTROLLERS);
  }
}
