import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, Not, Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { INTAKE_DB } from './intake-db';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity';

const REFRESH_MS = 15_000;

/**
 * The secrets a delivery may be signed with: CRM_WEBHOOK_SECRET and the secrets of the engine's
 * active subscriptions at the current CRM base URL (during a replacement both old and new are
 * valid). Subscriptions made with another CRM (an earlier CRM_BASE_URL, an earlier embedded
 * sandbox) are retired at start: a secret of a CRM we no longer talk to must not open the intake. Cached briefly so the
 * intake does not read Postgres twice per delivery. Read over the intake's own pool.
 */
@Injectable()
export class WebhookSecretsService implements OnModuleInit {
  private readonly logger = new Logger(WebhookSecretsService.name);
  private cache: { secrets: string[]; at: number } | undefined;
  private readonly subscriptions: Repository<WebhookSubscriptionEntity>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INTAKE_DB) db: DataSource,
  ) {
    this.subscriptions = db.getRepository(WebhookSubscriptionEntity);
  }

  async onModuleInit(): Promise<void> {
    const retired = await this.subscriptions.update(
      { active: true, crmBaseUrl: Not(this.crmBaseUrl()) },
      { active: false },
    );
    if (retired.affected)
      this.logger.log(`retired ${retired.affected} webhook secret(s) of another CRM base URL`);
  }

  private crmBaseUrl(): string {
    return this.config.crm.baseUrl ?? '';
  }

  async secrets(): Promise<string[]> {
    if (this.cache && Date.now() - this.cache.at < REFRESH_MS) return this.cache.secrets;
    const rows = await this.subscriptions.find({
      where: { active: true, crmBaseUrl: this.crmBaseUrl() },
      order: { createdAt: 'DESC' },
    });
    const secrets = [
      ...(this.config.crm.webhookSecret ? [this.config.crm.webhookSecret] : []),
      ...rows.map((r) => r.secret),
    ];
    this.cache = { secrets, at: Date.now() };
    return secrets;
  }

  invalidate(): void {
    this.cache = undefined;
  }
}
